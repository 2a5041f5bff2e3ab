#pragma once
// The one place that registers pg_act's shared-memory areas (concurrent
// mode) with PostgreSQL's request and startup hooks.
#include "error_bridge.hpp"

namespace act::pg {

struct SharedArea {
  const char* name;                          // as pg_shmem_allocations shows it
  Size (*size)();                            // bytes; MaxBackends is known when it is called
  void (*attach)(void* memory, bool found);  // found: another process initialized it already
};

// From _PG_init while shared_preload_libraries load; at most a few areas.
void RegisterSharedArea(const SharedArea& area);

}  // namespace act::pg
