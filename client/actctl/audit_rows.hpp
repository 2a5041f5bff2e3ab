#pragma once
// The rows actctl log audit reads (events and their stored hashes), and each
// stream's hash chain recomputed from them with core's encoder
// (docs/hash-chain.md): shared by the entry checks (audit_entries.cpp) and
// the removal records' (audit_removals.cpp). In audit_chains.cpp.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "act/core/event_hash.hpp"
#include "act/log_transaction.hpp"

namespace actctl {

// An event as its hash covers it, its stored hash checked to be one.
struct EventRow {
  std::int64_t id = 0;
  std::string stream;
  std::int32_t version = 0;
  std::string name, data, meta;
  std::int64_t created_micros = 0;
  act::core::Hash hash{};
  std::vector<std::string> tags;  // act.event_tags in order; hashed in encoding 2 when any

  explicit EventRow(act::ChainedEvent event);
  std::string Label() const;  // event id I (stream "S" version V)
};

// Each stream's chain, checked event by event in version order from its
// start: version 0 chained to zeros, or the version its anchor names.
class ChainChecker {
 public:
  explicit ChainChecker(act::LogTransaction& log);

  // The stream's highest checked version; -1 when none.
  std::int32_t CheckedUpTo(const std::string& stream) const;

  // LogBroken unless `event` follows the stream's last checked event (or
  // starts it) and its stored hash is the hash of its content and chain.
  void Check(const EventRow& event);

  struct Anchor {
    std::int32_t version = 0;
    act::core::Hash prev{};
  };
  // The anchors that started a checked stream: their prev must be a deleted entry's hash.
  std::vector<std::pair<std::string, Anchor>> UsedAnchors() const;
  std::unordered_set<std::string> AnchorPrevs() const;
  std::uint64_t chained() const { return chained_; }

 private:
  struct Head {
    std::int32_t version = 0;
    act::core::Hash hash{};
  };
  std::unordered_map<std::string, Anchor> anchors_;
  std::unordered_map<std::string, Head> heads_;
  std::vector<std::string> used_anchors_;
  act::core::EventHasher hasher_;
  std::uint64_t chained_ = 0;
};

}  // namespace actctl
