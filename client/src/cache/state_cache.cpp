#include "cache/state_cache.hpp"

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
  const std::lock_guard lock(mutex_);
  const auto found = index_.find(std::string(stream));
  if (found == index_.end() || found->second->second.event_id > event_id) return;
  erase(found);
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
}

std::size_t StateCache::size() const {
  const std::lock_guard lock(mutex_);
  return order_.size();
}

}  // namespace act::cache
