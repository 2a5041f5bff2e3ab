#pragma once
// The copy itself: a source's events into pg_act through act::Store, in the
// source's global order, resumed after what an earlier run imported.
#include <cstdint>
#include <optional>
#include <pqxx/pqxx>

#include "act/store.hpp"
#include "import_source.hpp"

namespace actctl {

// The source position up to which an earlier run imported: the newest import
// key of this source in pg_act's log, read backward from its newest event
// (0 when none).
std::int64_t ImportedUpTo(act::Store& store, const ImportSource& source);

struct ImportOptions {
  bool dry_run = false;               // read and judge everything, commit nothing
  std::optional<std::int64_t> limit;  // stop after this many events
};

struct ImportReport {
  std::int64_t resumed_after = 0;  // source position
  std::int64_t events = 0;         // imported (or, dry, to import)
  std::int64_t commits = 0;
  std::int64_t streams = 0;
  bool complete = false;  // the source's end was reached
};

ImportReport RunImport(pqxx::connection& source_connection, const ImportSource& source, act::Store& store,
                       const ImportOptions& options);

}  // namespace actctl
