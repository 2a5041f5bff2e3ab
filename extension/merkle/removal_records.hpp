#pragma once
// Removal records (act/core/removal_record.hpp, docs/verifiable-log.md):
// what act.truncate states about the entries it removes, and the ledger
// act.verify_log reads them back into. Needs SPI.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "act/core/removal_record.hpp"
#include "error_bridge.hpp"

namespace act::pg::log {

// The positions (an int8multirange's text) and the statement (the record
// event's data) for the removal of these sealed events, read on the latest
// snapshot: the sealer may have sealed them in another transaction.
struct RemovalDescription {
  std::string positions;
  std::string statement;
};
RemovalDescription DescribeRemoval(std::vector<int64> ids, bool before_upgrade);

// Every record of act.log_removals, checked against its event and the
// entries it lists; the positions it lists looked up by the walk.
class RemovalLedger {
 public:
  using Reporter = std::function<void(std::optional<int64> position, std::optional<int64> id, std::string problem)>;

  // Reads and checks every record against the tree of `tree_size` entries;
  // each fault is one call of `report`.
  void Load(std::uint64_t tree_size, const Reporter& report);
  // The record that lists the position, if any. Positions asked in
  // increasing order cost O(1) each.
  std::optional<int64> RecordListing(std::uint64_t position);
  std::uint64_t accounted() const { return accounted_; }
  void CountAccounted() { ++accounted_; }

 private:
  struct ListedRun {
    core::removal::Run run;
    int64 record_id;
  };
  std::vector<ListedRun> runs_;  // sorted by begin
  std::size_t cursor_ = 0;
  std::uint64_t accounted_ = 0;
};

}  // namespace act::pg::log
