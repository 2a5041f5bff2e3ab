#pragma once
// Static marking: a commit raises the work mark of every subscription whose
// source matches the committed stream (docs/work-marks.md).
#include <string_view>
#include <vector>

#include "act/core/subscription_input.hpp"
#include "error_bridge.hpp"

namespace act::pg {

// Runs inside the committing transaction with the registry lock held shared
// (locks.hpp); connects to SPI only when it has marks to write.
void MarkSubscriptions(Datum stream_datum, std::string_view stream, const std::vector<core::EventRef>& events);

// Whether wide marks are kept per class (act.wide_classes, since 0.2.1). An
// older version's schema, until ALTER EXTENSION pg_act UPDATE, keeps them per
// subscription row, and this library marks and claims it that way.
bool MarksByClass();

}  // namespace act::pg
