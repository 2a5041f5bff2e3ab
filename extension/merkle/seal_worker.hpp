#pragma once
// The seal worker of a preloaded library (docs/verifiable-log.md, "Sealing"):
// a launcher that, every act.seal_interval_ms, starts a short-lived worker
// per database that runs act.seal() once and exits. Short-lived, so that
// DROP DATABASE never finds one of ours holding the database for long; a
// database without the verifiable log is looked at again only every 5 s.
namespace act::pg {

// From _PG_init while shared_preload_libraries load.
void InstallSealWorker();

}  // namespace act::pg
