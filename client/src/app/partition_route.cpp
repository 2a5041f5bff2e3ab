#include "app/partition_route.hpp"

#include <string>

#include "act/errors.hpp"
#include "act/partitions.hpp"

namespace act::app_detail {

std::int32_t PartitionRoute::partition_of(std::string_view stream) const {
  return act::partition_of(stream, partitions());
}

std::shared_ptr<AppCore> PartitionRoute::core(std::int32_t partition) const {
  std::shared_ptr<AppCore> core = (*cores_)[static_cast<std::size_t>(partition)].lock();
  if (!core) {
    throw Error("partition " + std::to_string(partition) + " of " + std::to_string(partitions()) +
                ": its core is gone (the App was destroyed)");
  }
  return core;
}

std::vector<SubscriptionSpec> PartitionRoute::hosted(const std::vector<SubscriptionSpec>& specs) const {
  std::vector<SubscriptionSpec> here;
  for (const SubscriptionSpec& spec : specs) {
    const bool literal = spec.source && !spec.source->empty() && !is_pattern(*spec.source);
    if (!literal || partition_of(*spec.source) == partition_) here.push_back(spec);
  }
  return here;
}

}  // namespace act::app_detail
