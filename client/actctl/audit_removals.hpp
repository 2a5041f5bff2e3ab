#pragma once
// What accounts, for actctl log audit, for an entry whose event is absent:
// the removal record act.truncate appended when it deleted the event
// (docs/verifiable-log.md, "Truncate and personal data"). In audit_removals.cpp.
#include <cstdint>
#include <memory>

#include "act/log_transaction.hpp"

namespace actctl {

class RemovalRecords {
 public:
  // Reads every record's listed positions (act.log_removals()); LogBroken when
  // two records list one position. `tree_size` is the audited checkpoint's.
  RemovalRecords(act::LogTransaction& log, std::uint64_t tree_size);
  ~RemovalRecords();
  RemovalRecords(const RemovalRecords&) = delete;
  RemovalRecords& operator=(const RemovalRecords&) = delete;

  // LogBroken naming the entry unless exactly one record lists entry
  // `position` (event `id`, absent from act.events) and that record holds:
  // its event present in stream "__truncations__" and on its chain, its data's
  // count and digest those of the positions it lists, none of whose events is
  // present, and its own entry after all of them (and its hash, when inside
  // the tree). Each record is checked once, when it first accounts for an entry.
  void AccountFor(std::int64_t position, std::int64_t id);

  // Entries accounted for by records that are not inside the audited tree
  // (sealed after the checkpoint, or not sealed yet).
  std::uint64_t accounted_later() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace actctl
