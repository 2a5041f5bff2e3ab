#pragma once
// Backend-wide settings of the extension.

namespace act::pg {

// act.notify: send NOTIFY act_commit from every commit.
extern bool g_notify_enabled;

// act.notify_payload: what a notification says. Superuser-only, so that an
// application role cannot turn names back on for everyone who listens.
enum NotifyPayload : int { kNotifyNames = 0, kNotifyPosition = 1 };
extern int g_notify_payload;

}  // namespace act::pg
