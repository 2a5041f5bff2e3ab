#pragma once
// Calls that write refuse to run on a hot standby with one clear error
// (25006) naming the call, before they take a lock or an id: without it a
// standby's refusal surfaces from whatever statement the call reaches first
// (a lock mode, a FOR UPDATE, an INSERT), and some of those say 55000.
#include "error_bridge.hpp"

namespace act::pg {

// 25006 naming `what` when this server is in recovery.
void RequirePrimary(const char* what);

}  // namespace act::pg
