#pragma once
// Backend-wide settings of the extension.

namespace act::pg {

// act.notify: send NOTIFY act_commit from every commit.
extern bool g_notify_enabled;

}  // namespace act::pg
