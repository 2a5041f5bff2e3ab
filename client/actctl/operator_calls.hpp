#pragma once
// The operator functions (act.unblock, reset, release, prioritize, defer) as
// `actctl unblock ...` and the inspector's actions both apply them: which
// rows each changes, for a dry run, and the call itself.
#include <cstdint>
#include <optional>
#include <vector>

#include "act/event.hpp"
#include "act/store.hpp"
#include "act/subscriptions.hpp"

namespace actctl {

enum class Operator { kUnblock, kReset, kRelease, kPrioritize, kDefer };

// What an operator call needs besides its selector.
struct OperatorValues {
  std::int32_t priority = 0;            // prioritize
  std::optional<act::Timestamp> until;  // defer (required there)
};

// Whether the operator changes a selected row (the SQL functions count only those).
bool Changes(Operator op, const act::Subscription& row, const OperatorValues& values);

// The selected rows the operator would change, for a dry run. A list of
// names is looked up name by name, each exactly (act.query_streams takes a
// filter object, not a list).
std::vector<act::Subscription> RowsThatChange(act::Store& store, Operator op, const act::StreamFilter& selector,
                                              const OperatorValues& values);

// Applies the operator to the selected rows; returns how many changed.
std::int32_t ApplyOperator(act::Store& store, Operator op, const act::StreamFilter& selector,
                           const OperatorValues& values);

}  // namespace actctl
