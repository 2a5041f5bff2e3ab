#include "cache/state_cache.hpp"

#include <algorithm>

namespace act::cache {

std::optional<Entry> StateCache::get(std::string_view stream) {
  const std::lock_guard lock(mutex_);
  const auto found = index_.find(std::string(stream));
  if (found == index_.end()) return std::nullopt;
  order_.splice(order_.begin(), order_, found->second);
  return found->second->second;
}

void StateCache::put(std::string_view stream, Entry entry) {
  if (capacity_ == 0) return;
  const std::lock_guard lock(mutex_);
  std::string key(stream);
  if (const auto stale = stale_up_to_.find(key); stale != stale_up_to_.end() && entry.event_id <= stale->second) return;
  if (const auto found = index_.find(key); found != index_.end()) {
    Entry& current = found->second->second;
    if (current.event_id > entry.event_id) return;
    current = std::move(entry);
    order_.splice(order_.begin(), order_, found->second);
    return;
  }
  if (order_.size() >= capacity_) {
    index_.erase(order_.back().first);
    order_.pop_back();
  }
  order_.emplace_front(key, std::move(entry));
  index_.emplace(std::move(key), order_.begin());
}

void StateCache::invalidate(std::string_view stream, std::int64_t event_id) {
  if (capacity_ == 0) return;
  const std::lock_guard lock(mutex_);
  std::string key(stream);
  remember_stale(key, event_id);
  const auto found = index_.find(key);
  if (found == index_.end() || found->second->second.event_id > event_id) return;
  erase(found);
}

void StateCache::remember_stale(const std::string& stream, std::int64_t event_id) {
  const auto [known, added] = stale_up_to_.try_emplace(stream, event_id);
  if (!added) {
    known->second = std::max(known->second, event_id);
    return;
  }
  stale_order_.push_back(stream);
  if (stale_order_.size() > capacity_) {
    stale_up_to_.erase(stale_order_.front());
    stale_order_.pop_front();
  }
}

void StateCache::drop(std::string_view stream) {
  const std::lock_guard lock(mutex_);
  const auto found = index_.find(std::string(stream));
  if (found != index_.end()) erase(found);
}

void StateCache::erase(Index::iterator found) {
  order_.erase(found->second);
  index_.erase(found);
}

void StateCache::clear() {
  const std::lock_guard lock(mutex_);
  index_.clear();
  order_.clear();
  stale_up_to_.clear();
  stale_order_.clear();
}

std::size_t StateCache::size() const {
  const std::lock_guard lock(mutex_);
  return order_.size();
}

}  // namespace act::cache
