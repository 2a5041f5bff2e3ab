#pragma once
// Runs work on the core that owns a stream: the app's own outside a
// partitioned deployment (one test of an empty route, nothing more), else
// the core of the stream's partition, where a StoreError is made a
// PartitionError naming that partition.
#include <string_view>

#include "act/partitions.hpp"
#include "app/app_core.hpp"

namespace act::app_detail {

template <class F>
auto on_owner(AppCore& core, std::string_view stream, F&& work) -> decltype(work(core)) {
  if (!core.route) return work(core);
  const PartitionRoute& route = *core.route;
  const std::int32_t partition = route.partition_of(stream);
  try {
    if (partition == route.partition()) return work(core);
    return work(*route.core(partition));  // the share lives until work returns
  } catch (...) {
    detail::rethrow_in_partition(partition, route.partitions());
  }
}

}  // namespace act::app_detail
