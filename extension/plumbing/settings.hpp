#pragma once
// Backend-wide settings of the extension.

namespace act::pg {

// act.notify: send NOTIFY act_commit from every commit.
extern bool g_notify_enabled;

// act.notify_payload: what a notification says. Superuser-only, so that an
// application role cannot turn names back on for everyone who listens.
enum NotifyPayload : int { kNotifyNames = 0, kNotifyPosition = 1 };
extern int g_notify_payload;

// act.log_origin: the verifiable log's name in checkpoints (and the key name
// of the signature act.checkpoint adds); empty means pg_act/<database name>.
extern char* g_log_origin;
// act.checkpoint_key_file: an Ed25519 private key (PEM) act.checkpoint signs
// with; empty: checkpoints are signed outside the database. Superuser-only.
extern char* g_checkpoint_key_file;
// act.seal_interval_ms: how often the seal worker of a preloaded library
// seals each database; 0 stops it.
extern int g_seal_interval_ms;
// act.horizon_beacon_ms: how often, in concurrent mode, the primary writes
// each database's horizon into the WAL for hot standbys; 0 stops it.
extern int g_horizon_beacon_ms;
// act.test_claim_gate, for tests only: when above 0, a claim waits between
// reading each candidate and locking it while a session holds
// pg_advisory_lock(act.test_claim_gate), so an isolation spec can change the
// row in between. Superuser-only.
extern int g_test_claim_gate;

}  // namespace act::pg
