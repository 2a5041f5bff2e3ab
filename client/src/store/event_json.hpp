#pragma once
// Event objects as act.claim_events and act.query_stats render them inside
// jsonb (no hash), read from their text straight into Committed: only the
// values a handler keeps (data, meta, pii) become json trees, so a page of
// a thousand events builds no envelope object per event.
#include <string_view>
#include <vector>

#include "act/event.hpp"

namespace act::store_rows {

// One event object. Throws act::Error when the text is not an event object.
Committed committed_from_json(std::string_view text);

// A jsonb array of event objects (a claimed row's events), in order.
std::vector<Committed> committed_list_from_json(std::string_view text);

}  // namespace act::store_rows
