#include "shared_memory.hpp"

#include <array>

extern "C" {
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
}

namespace act::pg {
namespace {

constexpr std::size_t kMaxAreas = 8;
std::array<SharedArea, kMaxAreas> g_areas{};
std::size_t g_area_count = 0;
shmem_request_hook_type g_previous_request = nullptr;
shmem_startup_hook_type g_previous_startup = nullptr;

void RequestAreas() {
  if (g_previous_request != nullptr) g_previous_request();
  for (std::size_t i = 0; i < g_area_count; ++i) RequestAddinShmemSpace(g_areas[i].size());
}

void StartAreas() {
  if (g_previous_startup != nullptr) g_previous_startup();
  LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
  for (std::size_t i = 0; i < g_area_count; ++i) {
    bool found = false;
    void* memory = ShmemInitStruct(g_areas[i].name, g_areas[i].size(), &found);
    g_areas[i].attach(memory, found);
  }
  LWLockRelease(AddinShmemInitLock);
}

}  // namespace

void RegisterSharedArea(const SharedArea& area) {
  if (g_area_count == kMaxAreas) elog(ERROR, "pg_act: too many shared memory areas");
  if (g_area_count == 0) {
    g_previous_request = shmem_request_hook;
    shmem_request_hook = RequestAreas;
    g_previous_startup = shmem_startup_hook;
    shmem_startup_hook = StartAreas;
  }
  g_areas[g_area_count++] = area;
}

}  // namespace act::pg
