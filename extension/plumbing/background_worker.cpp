#include "background_worker.hpp"

#include <cstdio>
#include <cstring>

namespace act::pg {

void FillWorker(BackgroundWorker* worker, const char* name, const char* function) {
  memset(worker, 0, sizeof(*worker));
  worker->bgw_flags = BGWORKER_SHMEM_ACCESS | BGWORKER_BACKEND_DATABASE_CONNECTION;
  worker->bgw_start_time = BgWorkerStart_RecoveryFinished;  // a standby's start when it is promoted
  snprintf(worker->bgw_library_name, BGW_MAXLEN, "pg_act");
  snprintf(worker->bgw_function_name, BGW_MAXLEN, "%s", function);
  snprintf(worker->bgw_name, BGW_MAXLEN, "%s", name);
  snprintf(worker->bgw_type, BGW_MAXLEN, "%s", name);
}

}  // namespace act::pg
