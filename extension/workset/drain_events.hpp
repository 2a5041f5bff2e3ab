#pragma once
// The events act.claim_events hands a claimed row, read straight through an
// index and built into one jsonb array, without a statement per row: an SPI
// query per claimed stream cost more in executor set-up and
// jsonb_build_object than reading its rows did.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

struct DrainScope {
  std::optional<Datum> source;  // text; none: every stream
  bool pattern = false;         // source is a regex
  const std::optional<std::vector<std::string>>* names = nullptr;  // none: every name
  int64 after = -1;                        // the row's watermark
  int64 horizon = -1;                      // never an event above it
  int32 max_events = 0;
  int64 max_bytes = 0;  // the batch's byte budget (EventBytes); the first event always goes
  bool hide_pii = true;
};

// The row's events after `after`, in id order: from its source, with a name
// in `names`, never a snapshot or a tombstone, never above the horizon, at
// most max_events, as a jsonb array of {"id","stream","version","name",
// "data","meta","created"} objects (+ "pii" when set and not hidden).
// The array stops before the event that would take it past max_bytes, but
// holds at least one event: a row whose events outgrow jsonb's 256 MB limit
// is handed them in turns instead of failing the whole call (54000).
// Reads through the active snapshot: the caller pushes one taken after it
// computed the horizon, so every event at or below it is seen.
// The result is allocated in the current memory context.
Datum DrainEvents(const DrainScope& scope);

}  // namespace act::pg
