#pragma once
// The stores of a partition set: one per partition database
// (docs/scale-out.md), or one for a single database. A call for a stream
// goes to its partition's store; a call for every stream goes to each, the
// counts summed and the rows merged. The App and the operator tools build
// on it, so this fan-out is written once.
//
//   act::StoreSet stores(act::PartitionMap({"dbname=act_p0", "dbname=act_p1"}));
//   stores.store_for("ticket-1").version("ticket-1");
//   stores.unblock(act::StreamFilter::named({"ticket-1", "ticket-7"}));   // on each partition
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "act/partitions.hpp"
#include "act/store.hpp"
#include "act/subscriptions.hpp"

namespace act {

class StoreSet {
 public:
  explicit StoreSet(PartitionMap map, StoreOptions options = {});
  // A single database.
  explicit StoreSet(std::shared_ptr<ConnectionPool> pool, StoreOptions options = {});

  std::int32_t partitions() const noexcept { return map_.partitions(); }
  std::int32_t partition_of(std::string_view stream) const { return map_.partition_of(stream); }
  const PartitionMap& map() const noexcept { return map_; }
  // std::out_of_range outside 0 .. partitions() - 1.
  Store& store(std::int32_t partition);
  Store& store_for(std::string_view stream) { return store(partition_of(stream)); }

  // work(store) on one partition's store; on a partition set its StoreErrors are PartitionErrors.
  template <class F>
  auto on(std::int32_t partition, F&& work) -> decltype(work(std::declval<Store&>())) {
    Store& target = store(partition);
    return in_partition(partition, partitions(), [&] { return work(target); });
  }
  // work(store, partition) on every partition, as act::on_every_partition runs it.
  template <class F>
  void each(F&& work) {
    on_every_partition(partitions(), [&](std::int32_t p) { work(store(p), p); });
  }

  // Over every partition. blocked_streams: the first `limit` blocked rows
  // after `after` in stream order (C collation) of all partitions (limit 0: all); the
  // others return the rows changed, summed. A partition that cannot be
  // reached does not stop the others (see act::on_every_partition).
  std::vector<Subscription> blocked_streams(const std::optional<std::string>& after = {}, std::int32_t limit = 100);
  std::int32_t unblock(const StreamFilter& streams);
  std::int32_t reset(const StreamFilter& streams);
  std::int32_t prioritize(const StreamFilter& streams, std::int32_t priority);

 private:
  PartitionMap map_;
  std::vector<Store> stores_;  // index = partition
};

}  // namespace act
