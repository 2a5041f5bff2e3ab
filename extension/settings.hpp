#pragma once
// Backend-wide settings and constants of the extension.
#include <cstdint>

namespace act::pg {

// act.notify: send NOTIFY act_commit from every commit.
extern bool g_notify_enabled;

// The commit fence: a transaction-scoped advisory lock (two-int form) that
// orders id assignment with visibility in fenced mode. Its keys are fixed so
// act.horizon_holders() and operators can find it in pg_locks.
inline constexpr std::int32_t kFenceClassId = 0x61637421;  // "act!"
inline constexpr std::int32_t kFenceObjectId = 1;

void TakeCommitFence();

}  // namespace act::pg
