// act.commit(stream, events, meta, expected_version): append under optimistic
// concurrency, hash-chained, in one call. See SQL-API.md "Writing".
#include <climits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/event_hash.hpp"
#include "act/core/notify_payload.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "arrays.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "jsonb_access.hpp"
#include "settings.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"
#include "stream_head.hpp"
#include "work_marks.hpp"
#include "timestamps.hpp"

namespace act::pg {
namespace {

struct EventInput {
  std::string_view name;
  Jsonb* data = nullptr;  // never null: absent data is {}
  Jsonb* pii = nullptr;   // null when none
};

Jsonb* EmptyObject() {
  return Guard([] { return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum("{}"))); });
}

std::vector<EventInput> ReadEvents(std::string_view stream, Jsonb* events) {
  const core::JsonKind root = RootKind(events);
  if (root != core::JsonKind::kArray)
    throw core::ValidationError("events for stream " + core::Quoted(stream) + " must be a JSON array, not " +
                                std::string(core::JsonKindName(root)));
  const uint32 count = JB_ROOT_COUNT(events);
  std::vector<EventInput> inputs;
  inputs.reserve(count);
  Jsonb* empty = nullptr;
  for (uint32 index = 0; index < count; ++index) {
    JsonbValue* element = Guard([events, index] { return getIthJsonbValueFromContainer(&events->root, index); });
    core::EventShape shape;
    shape.element = KindOf(*element);
    JsonbValue name, data, pii;
    if (shape.element == core::JsonKind::kObject) {
      JsonbContainer* object = element->val.binary.data;
      if (FindKey(object, "name", &name)) {
        shape.name_kind = KindOf(name);
        if (shape.name_kind == core::JsonKind::kString) shape.name = StringOf(name);
      }
      if (FindKey(object, "data", &data)) shape.data_kind = KindOf(data);
      if (FindKey(object, "pii", &pii)) shape.pii_kind = KindOf(pii);
    }
    core::ValidateEvent(stream, index, shape);
    EventInput input{shape.name};
    if (shape.data_kind == core::JsonKind::kObject) {
      input.data = ToJsonb(&data);
    } else {
      if (empty == nullptr) empty = EmptyObject();
      input.data = empty;
    }
    if (shape.pii_kind == core::JsonKind::kObject) input.pii = ToJsonb(&pii);
    inputs.push_back(input);
  }
  return inputs;
}

const Oid kInsertOneArgTypes[] = {TEXTOID, INT4OID, TEXTOID, JSONBOID, JSONBOID, JSONBOID, TIMESTAMPTZOID, BYTEAOID};
SavedPlan g_insert_one_plan(
    "INSERT INTO act.events (stream, version, name, data, meta, pii, created, hash) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (stream, version) DO NOTHING RETURNING *",
    8, kInsertOneArgTypes);

const Oid kInsertManyArgTypes[] = {TEXTOID,       INT4ARRAYOID,  TEXTARRAYOID,  JSONBARRAYOID,
                                   JSONBOID,      JSONBARRAYOID, TIMESTAMPTZOID, BYTEAARRAYOID};
// ORDER BY u.ord makes ids follow array order: the id default is evaluated row by row.
SavedPlan g_insert_many_plan(
    "INSERT INTO act.events (stream, version, name, data, meta, pii, created, hash) "
    "SELECT $1, u.version, u.name, u.data, $5, u.pii, $7, u.hash "
    "FROM unnest($2, $3, $4, $6, $8) WITH ORDINALITY AS u(version, name, data, pii, hash, ord) "
    "ORDER BY u.ord ON CONFLICT (stream, version) DO NOTHING RETURNING *",
    8, kInsertManyArgTypes);

struct PreparedRows {
  std::vector<Datum> versions, names, data, pii, hashes;
  std::unique_ptr<bool[]> pii_nulls;
};

PreparedRows PrepareRows(std::string_view stream, const StreamHead& head, const std::vector<EventInput>& events,
                         Jsonb* meta, TimestampTz created) {
  PreparedRows rows;
  const std::size_t count = events.size();
  rows.pii_nulls = std::make_unique<bool[]>(count);
  core::EventHasher hasher;
  core::Hash prev = head.hash;
  core::EventFields fields;
  fields.stream = stream;
  fields.meta_json = CanonicalText(meta);
  fields.created_unix_micros = UnixMicros(created);
  for (std::size_t i = 0; i < count; ++i) {
    const EventInput& event = events[i];
    fields.version = head.version + 1 + static_cast<int32>(i);
    fields.name = event.name;
    fields.data_json = CanonicalText(event.data);
    prev = hasher.Compute(prev, fields);
    rows.versions.push_back(Int32GetDatum(fields.version));
    rows.names.push_back(MakeText(event.name));
    rows.data.push_back(JsonbPGetDatum(event.data));
    rows.pii.push_back(event.pii != nullptr ? JsonbPGetDatum(event.pii) : Datum(0));
    rows.pii_nulls[i] = event.pii == nullptr;
    rows.hashes.push_back(MakeBytea(prev.data(), prev.size()));
  }
  return rows;
}

void InsertRows(Datum stream, Jsonb* meta, TimestampTz created, PreparedRows& rows) {
  if (rows.names.size() == 1) {
    Datum values[8] = {stream,      rows.versions[0],        rows.names[0], rows.data[0],
                       JsonbPGetDatum(meta), rows.pii[0], TimestampTzGetDatum(created), rows.hashes[0]};
    const char nulls[9] = {' ', ' ', ' ', ' ', ' ', rows.pii_nulls[0] ? 'n' : ' ', ' ', ' ', '\0'};
    Execute(g_insert_one_plan.Get(), values, nulls, false, 0, SPI_OK_INSERT_RETURNING);
    return;
  }
  Datum values[8] = {stream,
                     MakeArray(rows.versions, nullptr, INT4OID),
                     MakeArray(rows.names, nullptr, TEXTOID),
                     MakeArray(rows.data, nullptr, JSONBOID),
                     JsonbPGetDatum(meta),
                     MakeArray(rows.pii, rows.pii_nulls.get(), JSONBOID),
                     TimestampTzGetDatum(created),
                     MakeArray(rows.hashes, nullptr, BYTEAOID)};
  Execute(g_insert_many_plan.Get(), values, nullptr, false, 0, SPI_OK_INSERT_RETURNING);
}

// Copies the inserted rows to the result and collects (id, name) for NOTIFY.
std::vector<core::EventRef> EmitRows(ReturnSetInfo* result) {
  std::vector<core::EventRef> refs;
  const uint64 count = SPI_processed;
  refs.reserve(count);
  for (uint64 i = 0; i < count; ++i) {
    core::EventRef ref{0, {}};
    core::EventRef* out = &ref;
    Guard([result, i, out] {
      HeapTuple row = SPI_tuptable->vals[i];
      TupleDesc desc = SPI_tuptable->tupdesc;
      tuplestore_puttuple(result->setResult, row);
      bool is_null;
      out->id = DatumGetInt64(SPI_getbinval(row, desc, 1, &is_null));
      text* name = DatumGetTextPP(SPI_getbinval(row, desc, 4, &is_null));
      out->name = std::string_view(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name));
    });
    refs.push_back(ref);
  }
  return refs;
}

void Notify(std::string_view stream, const std::vector<core::EventRef>& refs) {
  const std::string payload = core::CommitNotifyPayload(stream, refs);
  if (payload.empty()) return;
  const char* text = payload.c_str();
  Guard([text] { Async_Notify("act_commit", text); });
}

// Without an expected version a commit means "append": when a concurrent
// commit to the same stream takes our versions first (concurrent mode), undo
// what was inserted and build on the new head, a few times before giving up.
constexpr int kAppendAttempts = 10;

const Oid kUndoArgTypes[] = {INT8ARRAYOID};
SavedPlan g_undo_plan("DELETE FROM act.events WHERE id = ANY ($1)", 1, kUndoArgTypes);

void UndoInserted() {
  std::vector<Datum> ids;
  for (uint64 row = 0; row < SPI_processed; ++row) ids.push_back(Int64GetDatum(*RowInt64(row, 1)));
  if (ids.empty()) return;
  Datum args[1] = {MakeArray(ids, nullptr, INT8OID)};
  Execute(g_undo_plan.Get(), args, nullptr, false, 0, SPI_OK_DELETE);
}

std::vector<core::EventRef> AppendEvents(Datum stream_datum, std::string_view stream, StreamHead head,
                                         const std::vector<EventInput>& events, Jsonb* meta,
                                         std::optional<long long> expected, ReturnSetInfo* result) {
  const std::string name(stream);
  const TimestampTz created = GetCurrentTransactionStartTimestamp();
  for (int attempt = 1;; ++attempt) {
    if (static_cast<long long>(head.version) + static_cast<long long>(events.size()) > INT_MAX)
      throw core::ValidationError("stream " + core::Quoted(stream) + " cannot take " + std::to_string(events.size()) +
                                  " more events: versions are int4");
    PreparedRows rows = PrepareRows(stream, head, events, meta, created);
    InsertRows(stream_datum, meta, created, rows);
    if (SPI_processed == events.size()) return EmitRows(result);
    // Another transaction took one of our versions after we read the head;
    // ON CONFLICT waited for it to finish, so a fresh read sees it.
    if (!expected) UndoInserted();
    head = CurrentHead(stream_datum, name, expected);
    if (head.closed) throw core::ClosedStreamError(name);
    if (expected) throw core::ConcurrencyError(name, *expected, head.version);
    if (attempt == kAppendAttempts) throw core::ConcurrencyError(name, head.version);
  }
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_commit) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("stream must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::string_view stream = pg::TextArg(fcinfo, 0);
  core::ValidateStreamName(stream);
  if (PG_ARGISNULL(1))
    throw core::ValidationError("events for stream " + core::Quoted(stream) + " must not be null",
                                core::sqlstate::kNullValueNotAllowed);
  // Before anything is detoasted or parsed: a huge payload costs nothing more.
  core::ValidateCommitSize(stream, pg::ArgumentBytes(fcinfo, 1), PG_ARGISNULL(2) ? 0 : pg::ArgumentBytes(fcinfo, 2));
  const std::vector<pg::EventInput> events = pg::ReadEvents(stream, pg::JsonbArg(fcinfo, 1));
  Jsonb* meta = PG_ARGISNULL(2) ? pg::EmptyObject() : pg::JsonbArg(fcinfo, 2);
  core::ValidateMeta(stream, pg::RootKind(meta));
  const std::optional<long long> expected =
      PG_ARGISNULL(3) ? std::nullopt : std::optional<long long>(PG_GETARG_INT32(3));
  core::ValidateExpectedVersion(stream, expected);

  ReturnSetInfo* result = pg::Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });
  const Datum stream_datum = PG_GETARG_DATUM(0);

  pg::SpiSession spi;
  if (!events.empty()) {
    // An empty list only checks: it needs neither. Concurrent mode needs no
    // fence: readers stay at or below the in-flight horizon instead.
    if (!pg::ConcurrentMode()) pg::TakeCommitFence();
    pg::TakeRegistryShared();
  }
  const pg::StreamHead head = pg::CurrentHead(stream_datum, std::string(stream), expected);
  if (head.closed) throw core::ClosedStreamError(std::string(stream));
  if (expected && *expected != head.version) throw core::ConcurrencyError(std::string(stream), *expected, head.version);
  if (!events.empty()) {
    pg::PublishInflight();  // before the insert takes ids
    const std::vector<core::EventRef> refs = pg::AppendEvents(stream_datum, stream, head, events, meta, expected, result);
    pg::MarkSubscriptions(stream_datum, stream, refs);
    if (pg::g_notify_enabled) pg::Notify(stream, refs);
  }
  spi.Finish();
  return Datum(0);
}
