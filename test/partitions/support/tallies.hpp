#pragma once
// Projections that write down every event they apply, one row each, so a
// test can prove nothing was lost, nothing applied twice, and each stream's
// and each partition's events applied in order. Shared by the tests and by
// build/partition_worker, the process the killed-worker test kills.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "act/act.hpp"

namespace act::test {

struct TallyOptions {
  std::string table;   // the read model's table: (seq, partition, stream, version, id)
  std::string prefix;  // only the streams prefix-...
  std::int32_t partitions = 0;
  std::chrono::microseconds per_event{0};  // a handler this slow widens the window a kill lands in
  std::string lane = "default";
};

// A projection with target `table`: setup creates the table, truncate empties it.
Projection tally(const TallyOptions& options);

// The lane a partition's own tally runs in: short leases, so the streams a
// killed worker held are claimed again soon.
Lane tally_lane(const std::string& name);

// One text value about a tally table: "rows distinct-events
// out-of-order-in-streams", and with partition_order " out-of-order-in-
// partitions" (ids not ascending within a partition: a read model over all
// partitions applies each partition in order).
std::string tally_summary_sql(const std::string& table, bool partition_order);

// The counter app over the partitions of map with a tally in each partition
// (table <table>_local in the partition's database, lane tally_lane(lane)),
// and the tally over all partitions (table <table> in read_model's database).
App tallied_app(PartitionMap map, const TallyOptions& options, std::shared_ptr<ConnectionPool> read_model);

}  // namespace act::test
