#pragma once
// The state cache: one checkpoint per stream, least recently used first out.
// An entry always equals the fold of its stream up to event_id (it may be
// behind the store, never ahead of it or different from it).
#include <any>
#include <cstddef>
#include <cstdint>
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
  // Stores the entry unless the cache holds a newer one for the stream (writers race).
  void put(std::string_view stream, Entry entry);
  // Drops the entry unless it is newer than event_id: a newer one came from a
  // commit after the read that proved event_id stale.
  void invalidate(std::string_view stream, std::int64_t event_id);
  // Drops the entry, however new.
  void drop(std::string_view stream);
  void clear();
  std::size_t size() const;

 private:
  using Order = std::list<std::pair<std::string, Entry>>;
  using Index = std::unordered_map<std::string, Order::iterator>;

  void erase(Index::iterator found);  // with the lock held

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  Order order_;  // most recent first
  Index index_;
};

}  // namespace act::cache
