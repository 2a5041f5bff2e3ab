// Module entry: magic block, settings, and the commit fence.
#include "error_bridge.hpp"
#include "settings.hpp"

extern "C" {
PG_MODULE_MAGIC;
void _PG_init(void);
}

namespace act::pg {

bool g_notify_enabled = true;

void TakeCommitFence() {
  Guard([] {
    DirectFunctionCall2(pg_advisory_xact_lock_int4, Int32GetDatum(kFenceClassId), Int32GetDatum(kFenceObjectId));
  });
}

void TakeRegistryShared() {
  Guard([] {
    DirectFunctionCall2(pg_advisory_xact_lock_shared_int4, Int32GetDatum(kFenceClassId),
                        Int32GetDatum(kRegistryObjectId));
  });
}

void TakeRegistryExclusive() {
  Guard([] {
    DirectFunctionCall2(pg_advisory_xact_lock_int4, Int32GetDatum(kFenceClassId), Int32GetDatum(kRegistryObjectId));
  });
}

}  // namespace act::pg

void _PG_init(void) {
  DefineCustomBoolVariable("act.notify", "Sends NOTIFY act_commit with the committed ids from every act.commit.",
                           "A NOTIFY makes Postgres serialize committing transactions; workers can wait with "
                           "act.wait() instead.",
                           &act::pg::g_notify_enabled, true, PGC_USERSET, 0, nullptr, nullptr, nullptr);
  MarkGUCPrefixReserved("act");
}
