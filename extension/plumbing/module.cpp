// Module entry: magic block, settings, shared memory of concurrent mode.
#include "counters.hpp"
#include "error_bridge.hpp"
#include "head_cache.hpp"
#include "horizon.hpp"
#include "seal_worker.hpp"
#include "settings.hpp"

extern "C" {
PG_MODULE_MAGIC;
void _PG_init(void);
}

namespace act::pg {

bool g_notify_enabled = true;
int g_notify_payload = kNotifyNames;
char* g_log_origin = nullptr;
char* g_checkpoint_key_file = nullptr;
int g_seal_interval_ms = 1000;
int g_horizon_beacon_ms = 5;
int g_test_claim_gate = 0;

}  // namespace act::pg

namespace {

emit_log_hook_type g_previous_emit_log_hook = nullptr;

// A call made before CREATE EXTENSION fails with "schema "act" does not
// exist": say what to do. Only a preloaded library sees errors of databases
// without the extension.
void HintMissingExtension(ErrorData* edata) {
  if (edata->elevel == ERROR && edata->sqlerrcode == ERRCODE_UNDEFINED_SCHEMA && edata->hint == nullptr &&
      edata->message != nullptr && strcmp(edata->message, "schema \"act\" does not exist") == 0)
    edata->hint = pstrdup("pg_act is not installed in this database: run CREATE EXTENSION pg_act;");
  if (g_previous_emit_log_hook != nullptr) g_previous_emit_log_hook(edata);
}

}  // namespace

void _PG_init(void) {
  // Concurrent mode needs shared memory, which only preloading can reserve.
  if (process_shared_preload_libraries_in_progress) {
    act::pg::InstallConcurrentMode();
    act::pg::InstallHeadCache();
    act::pg::InstallCounters();
    act::pg::InstallSealWorker();
    g_previous_emit_log_hook = emit_log_hook;
    emit_log_hook = HintMissingExtension;
  }
  // NOTIFY serializes committing transactions: on by default only where
  // commits are serialized anyway.
  act::pg::g_notify_enabled = !act::pg::ConcurrentMode();
  DefineCustomBoolVariable("act.notify", "Sends NOTIFY act_commit with the committed ids from every act.commit.",
                           "A NOTIFY makes Postgres serialize committing transactions; workers can wait with "
                           "act.wait() instead. Default: on in fenced mode, off in concurrent mode.",
                           &act::pg::g_notify_enabled, act::pg::g_notify_enabled, PGC_USERSET, 0, nullptr, nullptr,
                           nullptr);
  static const config_enum_entry kPayloads[] = {
      {"names", act::pg::kNotifyNames, false}, {"position", act::pg::kNotifyPosition, false}, {nullptr, 0, false}};
  DefineCustomEnumVariable("act.notify_payload", "What NOTIFY act_commit carries: names (stream and event names) or position.",
                           "LISTEN needs no grant: any role that can connect hears every notification. 'position' "
                           "sends {\"last\": id} only.",
                           &act::pg::g_notify_payload, act::pg::kNotifyNames, kPayloads, PGC_SUSET, 0, nullptr, nullptr,
                           nullptr);
  DefineCustomStringVariable("act.log_origin", "The verifiable log's origin line in checkpoints, and their key name.",
                             "Empty: pg_act/<database name>. Set it per database (ALTER DATABASE) to a name "
                             "auditors know the log by.",
                             &act::pg::g_log_origin, "", PGC_SUSET, 0, nullptr, nullptr, nullptr);
  DefineCustomStringVariable("act.checkpoint_key_file",
                             "An Ed25519 private key (PEM) act.checkpoint signs checkpoints with.",
                             "Empty: checkpoints are signed outside the database (actctl log checkpoint --sign) "
                             "and added with act.add_checkpoint_signature.",
                             &act::pg::g_checkpoint_key_file, "", PGC_SUSET, 0, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("act.seal_interval_ms", "How often the seal worker seals each database (preloaded library).",
                          "0 stops the worker's sealing; act.seal() still seals on demand.",
                          &act::pg::g_seal_interval_ms, 1000, 0, 3600 * 1000, PGC_SIGHUP, GUC_UNIT_MS, nullptr,
                          nullptr, nullptr);
  DefineCustomIntVariable("act.horizon_beacon_ms",
                          "How often the primary writes each database's horizon into the WAL for hot standbys "
                          "(concurrent mode).",
                          "A standby reads up to the last horizon replayed; 0 stops the beacon, and a standby's "
                          "horizon with it.",
                          &act::pg::g_horizon_beacon_ms, 5, 0, 60 * 1000, PGC_SIGHUP, GUC_UNIT_MS, nullptr, nullptr,
                          nullptr);
  DefineCustomIntVariable("act.test_claim_gate",
                          "Tests only: a claim waits between reading a candidate and locking it while a session "
                          "holds pg_advisory_lock of this key.",
                          "0, the default, never waits.", &act::pg::g_test_claim_gate, 0, 0, INT_MAX, PGC_SUSET,
                          GUC_NOT_IN_SAMPLE, nullptr, nullptr, nullptr);
  MarkGUCPrefixReserved("act");
}
