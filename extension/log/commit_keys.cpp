// Idempotency keys of commits: the lookup act.commit makes under the
// stream's lock, and act.commit_by_key(stream, idempotency_key).
#include "commit_keys.hpp"

#include "act/core/errors.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "arrays.hpp"
#include "hosted_partition.hpp"
#include "index_scan.hpp"
#include "jsonb_access.hpp"
#include "log/commit_keys_sql.hpp"
#include "pii_access.hpp"
#include "relations.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg {
namespace {

// The ids of the stream's events that carry `key`, through
// events_idempotency_ix itself: a plan might walk a long stream instead.
std::vector<int64> KeyedIds(Datum stream, const std::string& key, ScanSnapshot snapshot) {
  if (!ActRelationExists("events_idempotency_ix"))
    throw core::ValidationError("meta.idempotency_key needs pg_act 0.2.4 or later in this database: run ALTER EXTENSION "
                                "pg_act UPDATE",
                                core::sqlstate::kObjectNotInPrerequisiteState);
  const IndexKey keys[2] = {{1, BTEqualStrategyNumber, F_TEXTEQ, stream},
                            {2, BTEqualStrategyNumber, F_TEXTEQ, MakeText(key)}};
  IndexScan scan("events", "events_idempotency_ix", keys, 2, snapshot);
  const int id = scan.Column("id");
  std::vector<int64> ids;
  while (scan.Next()) ids.push_back(*scan.Int64At(id));
  return ids;
}

// The rows of those ids, by version; pii as NULL for who may not read it.
// act.commit runs under the caller's search_path: every name and operator
// is qualified.
const Oid kRowsArgTypes[] = {INT8ARRAYOID, BOOLOID};
SavedPlan g_rows_plan(commit_keys_sql::kRows, 2, kRowsArgTypes);

void ReadRows(const std::vector<int64>& ids, bool read_only) {
  std::vector<Datum> items;
  for (int64 id : ids) items.push_back(Int64GetDatum(id));
  Datum args[2] = {MakeArray(items, nullptr, INT8OID), BoolGetDatum(!CallerMayReadPii())};
  if (read_only)
    Execute(g_rows_plan.Get(), args, nullptr, true, 0, SPI_OK_SELECT);
  else
    ExecuteOnLatest(g_rows_plan.Get(), args, nullptr, true, 0, SPI_OK_SELECT);
}

// The SPI rows of a keyed commit against what a retry sent.
void RequireSameEvents(std::string_view stream, const std::string& key, const std::vector<SentEvent>& sent) {
  const uint64 rows = RowCount();
  bool same = rows == sent.size();
  for (uint64 i = 0; same && i < rows; ++i) {
    same = RowText(i, 4) == sent[i].name;
    Jsonb* retried = sent[i].data;
    const uint64 row = i;
    same = same && Guard([row, retried] {
             bool is_null = false;
             const Datum data = SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, 5, &is_null);
             return !is_null && DatumGetBool(DirectFunctionCall2(jsonb_eq, data, JsonbPGetDatum(retried)));
           });
  }
  if (same) return;
  const std::string versions = rows == 0 ? std::string("none")
                                         : std::to_string(*RowInt32(0, 3)) + " to " + std::to_string(*RowInt32(rows - 1, 3));
  throw core::ValidationError("idempotency key " + core::Quoted(key) + " of stream " + core::Quoted(stream) +
                              " belongs to a commit with other events (versions " + versions + "): a retry must send " +
                              "the same events");
}

void EmitRows(ReturnSetInfo* result) {
  Guard([result] {
    for (uint64 i = 0; i < SPI_processed; ++i) tuplestore_puttuple(result->setResult, SPI_tuptable->vals[i]);
  });
}

}  // namespace

std::optional<std::string> IdempotencyKeyOf(std::string_view stream, Jsonb* meta) {
  JsonbValue key;
  if (!FindKey(&meta->root, "idempotency_key", &key)) return std::nullopt;
  const core::JsonKind kind = KindOf(key);
  const std::string_view text = kind == core::JsonKind::kString ? StringOf(key) : std::string_view();
  core::ValidateIdempotencyKey(stream, kind, text);
  return std::string(text);
}

bool ReplayKeyedCommit(Datum stream, std::string_view stream_name, const std::string& key,
                       const std::vector<SentEvent>& sent, ReturnSetInfo* result) {
  const std::vector<int64> ids = KeyedIds(stream, key, ScanSnapshot::kLatest);
  if (ids.empty()) return false;
  SpiSession spi;
  ReadRows(ids, false);
  RequireSameEvents(stream_name, key, sent);
  EmitRows(result);
  spi.Finish();
  return true;
}

}  // namespace act::pg

using namespace act;

// act.commit_by_key(stream, idempotency_key): the rows the commit with that
// key wrote to the stream, by version; none when no present event carries it.
ACT_SQL_FUNCTION(act_commit_by_key) {
  for (int arg = 0; arg < 2; ++arg)
    if (PG_ARGISNULL(arg))
      throw core::ValidationError(std::string(arg == 0 ? "stream" : "idempotency_key") + " must not be null",
                                  core::sqlstate::kNullValueNotAllowed);
  const std::string_view stream = pg::TextArg(fcinfo, 0);
  core::ValidateStreamName(stream);
  pg::RequireHostedStream(stream);
  const std::string key(pg::TextArg(fcinfo, 1));
  core::ValidateIdempotencyKey(stream, core::JsonKind::kString, key);
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  const std::vector<int64> ids = pg::KeyedIds(PG_GETARG_DATUM(0), key, pg::ScanSnapshot::kActive);
  if (ids.empty()) return Datum(0);
  pg::SpiSession spi;
  pg::ReadRows(ids, true);
  pg::EmitRows(result);
  spi.Finish();
  return Datum(0);
}
