#pragma once
// What act.query and act.claim_events share: the parameter types of the
// statements core::EventQuerySql builds (core::EventQueryParam order).
#include "act/core/event_query.hpp"
#include "error_bridge.hpp"

namespace act::pg {

extern const Oid kEventQueryArgTypes[core::kEventQueryParamCount];

}  // namespace act::pg
