#include "act/store_set.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace act {

StoreSet::StoreSet(PartitionMap map, StoreOptions options) : map_(std::move(map)) {
  stores_.reserve(static_cast<std::size_t>(map_.partitions()));
  for (std::int32_t p = 0; p < map_.partitions(); ++p) stores_.emplace_back(map_.pool(p), options);
}

StoreSet::StoreSet(std::shared_ptr<ConnectionPool> pool, StoreOptions options)
    : StoreSet(PartitionMap({std::move(pool)}), options) {}

Store& StoreSet::store(std::int32_t partition) {
  if (partition < 0 || partition >= partitions())
    throw std::out_of_range("StoreSet: partition " + std::to_string(partition) + " of " + std::to_string(partitions()));
  return stores_[static_cast<std::size_t>(partition)];
}

std::vector<Subscription> StoreSet::blocked_streams(const std::optional<std::string>& after, std::int32_t limit) {
  StreamFilter blocked;
  blocked.blocked = true;
  std::vector<Subscription> merged;
  each([&](Store& store, std::int32_t) {
    std::vector<Subscription> rows = store.query_streams(blocked, after, limit);
    merged.insert(merged.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
  });
  // Each partition's rows come in C collation already: the merge keeps it.
  std::sort(merged.begin(), merged.end(),
            [](const Subscription& a, const Subscription& b) { return a.stream < b.stream; });
  if (limit > 0 && merged.size() > static_cast<std::size_t>(limit)) merged.resize(static_cast<std::size_t>(limit));
  return merged;
}

std::int32_t StoreSet::unblock(const StreamFilter& streams) {
  std::int32_t total = 0;
  each([&](Store& store, std::int32_t) { total += store.unblock(streams); });
  return total;
}

std::int32_t StoreSet::reset(const StreamFilter& streams) {
  std::int32_t total = 0;
  each([&](Store& store, std::int32_t) { total += store.reset(streams); });
  return total;
}

std::int32_t StoreSet::prioritize(const StreamFilter& streams, std::int32_t priority) {
  std::int32_t total = 0;
  each([&](Store& store, std::int32_t) { total += store.prioritize(streams, priority); });
  return total;
}

}  // namespace act
