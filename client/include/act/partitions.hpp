#pragma once
// A partitioned deployment seen from the client (docs/scale-out.md): P
// partition databases, P a power of two, and the rule that puts each stream
// in one of them. The client routes itself with it, with no router between.
//
//   act::PartitionMap map({"host=node-a dbname=act_p0", "host=node-b dbname=act_p1",
//                          "host=node-a dbname=act_p2", "host=node-b dbname=act_p3"});
//   map.pool_for("ticket-1");   // partition 3's pool
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace act
