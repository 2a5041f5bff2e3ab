#pragma once
// pg_act's background workers (the seal launcher and sealers, the horizon
// beacon) are described alike: the library's own, with shared memory and a
// connection (to a database, or to none), started once recovery is over.
#include "error_bridge.hpp"

extern "C" {
#include "postmaster/bgworker.h"
}

namespace act::pg {

// `worker` cleared, then: name and type `name`, entry point `function` of pg_act.
void FillWorker(BackgroundWorker* worker, const char* name, const char* function);

}  // namespace act::pg
