#pragma once
// One read model fed by every partition of an App. Ids are per
// partition, so its position is a vector: the last id applied from each
// partition, one row per partition in the read model's database
// (act_partition_positions), written in the transaction of the handlers'
// writes. A crash loses neither an event nor applies one twice, and workers
// in any number of processes share the partitions by locking those rows.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "act/detail/reaction_model.hpp"
#include "act/drain.hpp"
#include "act/pool.hpp"
#include "react/registry.hpp"

namespace act::partitions {

// The log of one partition: its pool, and the registry of its app (the
// upcasters and personal-data rules the handlers' events go through).
struct PartitionSource {
  ConnectionPool* pool = nullptr;
  const react::Registry* registry = nullptr;
};

// SKIP LOCKED for the drain and the workers (a partition another worker
// has is not theirs to wait for); settle and rebuild wait for it.
enum class Locking { kSkipLocked, kWait };

struct Step {
  DrainResult drained;
  bool more = false;     // a full page: there is more to read up to the horizon
  bool skipped = false;  // another worker had the partition (kSkipLocked)
};

class CombinedProjection {
 public:
  CombinedProjection(std::shared_ptr<const detail::ProjectionModel> projection,
                     std::shared_ptr<ConnectionPool> read_model, std::int32_t partitions);

  const std::string& target() const noexcept { return projection_->route.target; }
  const detail::ProjectionModel& model() const noexcept { return *projection_; }

  // Creates the positions table and this projection's rows (position 0),
  // then runs the projection's setup, once per process. Throws
  // std::invalid_argument when the rows were made for another number of partitions.
  void set_up();
  // False for the partitions a literal source's stream is not in.
  bool reads(std::int32_t partition) const;
  // Applies the next page of the partition's events (up to its horizon). A
  // failing handler keeps the events before its own and holds the position
  // at it: a read model over everything never skips an event. Failures of
  // a database throw (StoreError).
  Step step(std::int32_t partition, const PartitionSource& source, Locking locking);
  // The last id applied from each partition, index = partition (0: none yet).
  std::vector<std::int64_t> positions();
  // Empties the read model (its truncate) and sets every position to 0, in
  // one transaction that waits for the workers holding rows.
  void rewind();

 private:
  std::shared_ptr<const detail::ProjectionModel> projection_;
  std::shared_ptr<ConnectionPool> read_model_;
  std::int32_t partitions_;
  std::mutex set_up_mutex_;
  bool set_up_ = false;
};

}  // namespace act::partitions
