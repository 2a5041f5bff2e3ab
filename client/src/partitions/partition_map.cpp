#include "act/partitions.hpp"

#include <stdexcept>

#include "act/errors.hpp"

// The rule's one implementation, header-only in core so that the client
// needs neither core's library nor its headers in its own public ones.
#include "act/core/partition.hpp"

namespace act {
namespace {

static_assert(kMaxPartitions == core::kMaxPartitions);

void check_count(std::int64_t partitions, const char* what) {
  if (partitions < 1 || partitions > kMaxPartitions || (partitions & (partitions - 1)) != 0) {
    throw std::invalid_argument(std::string(what) + ": the number of partitions must be a power of two from 1 to " +
                                std::to_string(kMaxPartitions) + ", not " + std::to_string(partitions));
  }
}

// Pools connect lazily: the map can be built while a node is down.
std::vector<std::shared_ptr<ConnectionPool>> pools_of(const std::vector<std::string>& conninfos, PoolOptions options) {
  std::vector<std::shared_ptr<ConnectionPool>> pools;
  pools.reserve(conninfos.size());
  for (const std::string& conninfo : conninfos) pools.push_back(std::make_shared<ConnectionPool>(conninfo, options));
  return pools;
}

}  // namespace

void detail::rethrow_in_partition(std::int32_t partition, std::int32_t partitions) {
  try {
    throw;
  } catch (const PartitionError&) {
    throw;  // named already, by the partition it happened on
  } catch (const StoreError& error) {
    throw PartitionError(partition, partitions, error);
  }
}

std::int32_t partition_of(std::string_view stream, std::int32_t partitions) {
  check_count(partitions, "partition_of");
  return core::PartitionOf(stream, partitions);
}

PartitionMap::PartitionMap(std::vector<std::shared_ptr<ConnectionPool>> pools) : pools_(std::move(pools)) {
  check_count(static_cast<std::int64_t>(pools_.size()), "PartitionMap");
  for (std::size_t p = 0; p < pools_.size(); ++p) {
    if (!pools_[p]) throw std::invalid_argument("PartitionMap: partition " + std::to_string(p) + " has no pool");
  }
}

PartitionMap::PartitionMap(const std::vector<std::string>& conninfos, PoolOptions options)
    : PartitionMap(pools_of(conninfos, options)) {}

std::int32_t PartitionMap::partition_of(std::string_view stream) const {
  if (partitions() == 1) return 0;  // a single database hashes nothing
  return core::PartitionOf(stream, partitions());
}

const std::shared_ptr<ConnectionPool>& PartitionMap::pool(std::int32_t partition) const {
  if (partition < 0 || partition >= partitions()) {
    throw std::out_of_range("PartitionMap: partition " + std::to_string(partition) + " of " +
                            std::to_string(partitions()));
  }
  return pools_[static_cast<std::size_t>(partition)];
}

}  // namespace act
