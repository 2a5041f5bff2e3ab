#pragma once
// Back-fill: a row's stored work mark raised to the highest existing event
// that is work for a source and names, as act.subscribe does for a new row
// and act.widen for the names it adds (docs/work-marks.md). The caller holds
// the registry lock exclusively (locks.hpp), so no commit marks or misses
// the row meanwhile, and runs inside an SPI session.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

// Raises the stored mark of `stream` to the highest event id whose stream
// matches `source` (NULL: every stream) and whose name is in `names` (NULL:
// every name), never a snapshot or tombstone; never lowers it.
void Backfill(std::string_view stream, const std::optional<std::string>& source,
              const std::optional<std::vector<std::string>>& names);

// For each of these wide rows whose class's mark stands above the row's mark
// (the class marked events act.truncate deleted since), records that mark as
// the row's class_floor: only marks above it are the row's work.
void SetClassFloors(const std::vector<std::string>& streams);

}  // namespace act::pg
