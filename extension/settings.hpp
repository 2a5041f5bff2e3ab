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

// The subscription registry lock: commits hold it shared while they mark
// subscriptions; a subscribe that adds rows holds it exclusively while it
// back-fills them. So a new subscription and a concurrent commit never miss
// each other, and commits never wait for one another on it.
inline constexpr std::int32_t kRegistryObjectId = 2;
void TakeRegistryShared();
void TakeRegistryExclusive();

}  // namespace act::pg
