#pragma once
// The state cache: one checkpoint per stream, least recently used first out.
// An entry always equals the fold of its stream up to event_id (it may be
// behind the store, never ahead of it or different from it).
#include <any>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace act::cache {

struct Entry {
  std::any state;
  std::int32_t version = -1;
  std::int64_t event_id = -1;
  std::int32_t patches = 0;
  std::int32_t snaps = 0;
};

class StateCache {
 public:
  explicit StateCache(std::size_t capacity) : capacity_(capacity) {}
  bool enabled() const noexcept { return capacity_ > 0; }

  // A copy of the entry, now the most recently used.
  std::optional<Entry> get(std::string_view stream);
  // Stores the entry unless the cache holds a newer one for the stream
  // (writers race), or an invalidation said the stream has moved past it.
  void put(std::string_view stream, Entry entry);
  // The stream has an event after event_id: drops the entry unless it is
  // newer (it came from a commit after the read that proved event_id
  // stale), and refuses later puts that are not (a load that read before
  // the commit must not put back what was dropped).
  void invalidate(std::string_view stream, std::int64_t event_id);
  // Drops the entry, however new.
  void drop(std::string_view stream);
  void clear();
  std::size_t size() const;

 private:
  using Order = std::list<std::pair<std::string, Entry>>;
  using Index = std::unordered_map<std::string, Order::iterator>;

  void erase(Index::iterator found);  // with the lock held
  void remember_stale(const std::string& stream, std::int64_t event_id);  // with the lock held

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  Order order_;  // most recent first
  Index index_;
  // Streams known to have moved past an id, for as many streams as the
  // cache holds (the oldest forgotten first): a racing load's put comes
  // within moments of the invalidation, not thousands of streams later.
  std::unordered_map<std::string, std::int64_t> stale_up_to_;
  std::deque<std::string> stale_order_;
};

}  // namespace act::cache
