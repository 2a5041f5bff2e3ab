#pragma once
// A partitioned deployment seen from the client (docs/scale-out.md): P
// partition databases, P a power of two, and the rule that puts each stream
// in one of them. The client routes itself with it, with no router between.
//
//   act::PartitionMap map({"host=node-a dbname=act_p0", "host=node-b dbname=act_p1",
//                          "host=node-a dbname=act_p2", "host=node-b dbname=act_p3"});
//   map.pool_for("ticket-1");   // partition 3's pool
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "act/errors.hpp"
#include "act/pool.hpp"

namespace act {

inline constexpr std::int32_t kMaxPartitions = 65536;

// The partition of a stream among `partitions`: the first four bytes of
// SHA-256 of the stream's UTF-8 bytes, big-endian, masked by partitions - 1,
// as act.partition_of computes it. Throws std::invalid_argument unless
// partitions is a power of two from 1 to kMaxPartitions.
std::int32_t partition_of(std::string_view stream, std::int32_t partitions);

// Partition number -> the pool of its database.
class PartitionMap {
 public:
  // pools[p] is partition p's. Throws std::invalid_argument when their
  // number is not a power of two up to kMaxPartitions, or a pool is null.
  explicit PartitionMap(std::vector<std::shared_ptr<ConnectionPool>> pools);
  // A pool of its own per libpq connection string, conninfos[p] partition p's.
  explicit PartitionMap(const std::vector<std::string>& conninfos, PoolOptions options = {});

  std::int32_t partitions() const noexcept { return static_cast<std::int32_t>(pools_.size()); }
  std::int32_t partition_of(std::string_view stream) const;
  // Throws std::out_of_range for a partition outside 0 .. partitions() - 1.
  const std::shared_ptr<ConnectionPool>& pool(std::int32_t partition) const;
  const std::shared_ptr<ConnectionPool>& pool_for(std::string_view stream) const { return pool(partition_of(stream)); }

 private:
  std::vector<std::shared_ptr<ConnectionPool>> pools_;
};

namespace detail {
// Rethrows the exception in flight; a StoreError (not yet a PartitionError)
// becomes a PartitionError naming the partition.
[[noreturn]] void rethrow_in_partition(std::int32_t partition, std::int32_t partitions);
}  // namespace detail

// work() for one partition of `partitions`. On a partition set (more than
// one), a StoreError it throws becomes a PartitionError naming the
// partition; a single database's errors pass as they are.
template <class F>
auto in_partition(std::int32_t partition, std::int32_t partitions, F&& work) -> decltype(work()) {
  if (partitions == 1) return work();
  try {
    return work();
  } catch (...) {
    detail::rethrow_in_partition(partition, partitions);
  }
}

// work(partition) for every partition in order. A partition that cannot be
// reached does not stop the others: its PartitionError (the first, if
// several) is thrown once all have run. A single database's errors pass at once.
template <class F>
void on_every_partition(std::int32_t partitions, F&& work) {
  if (partitions == 1) return work(0);
  std::exception_ptr first_failure;
  for (std::int32_t p = 0; p < partitions; ++p) {
    try {
      in_partition(p, partitions, [&] { work(p); });
    } catch (const PartitionError&) {
      if (!first_failure) first_failure = std::current_exception();
    }
  }
  if (first_failure) std::rethrow_exception(first_failure);
}

}  // namespace act
