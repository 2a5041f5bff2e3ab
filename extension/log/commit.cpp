// act.commit(stream, events, meta, expected_version): append under optimistic
// concurrency, hash-chained, in one call. See docs/reference.md, "Writing".
#include <climits>
#include <functional>
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
#include "commit_keys.hpp"
#include "counters.hpp"
#include "error_bridge.hpp"
#include "events_writer.hpp"
#include "head_cache.hpp"
#include "horizon.hpp"
#include "hosted_partition.hpp"
#include "jsonb_access.hpp"
#include "locks.hpp"
#include "log/commit_sql.hpp"
#include "primary_only.hpp"
#include "settings.hpp"
#include "spi.hpp"
#include "stream_head.hpp"
#include "timestamps.hpp"
#include "work_marks.hpp"

namespace act::pg {
namespace {

// bigint since 0.2.0; int in the SQL of older versions, which run against
// this library until ALTER EXTENSION UPDATE.
long long ExpectedVersionArg(FunctionCallInfo fcinfo) {
  const Oid type = Guard([fcinfo] { return get_fn_expr_argtype(fcinfo->flinfo, 3); });
  return type == INT4OID ? static_cast<long long>(PG_GETARG_INT32(3)) : static_cast<long long>(PG_GETARG_INT64(3));
}

// meta.correlation is indexed (as the text ->> gives): bounded up front.
void ValidateCorrelation(std::string_view stream, Jsonb* meta) {
  JsonbValue correlation;
  if (!FindKey(&meta->root, "correlation", &correlation)) return;
  const std::size_t bytes = correlation.type == jbvString ? StringOf(correlation).size()
                            : correlation.type == jbvBinary ? CanonicalText(ToJsonb(&correlation)).size()
                                                            : 0;
  core::ValidateIndexedBytes(bytes, "meta.correlation for stream " + core::Quoted(stream), core::kMaxCorrelationBytes);
}

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
      const int found = (shape.name_kind != core::JsonKind::kAbsent) + (shape.data_kind != core::JsonKind::kAbsent) +
                        (shape.pii_kind != core::JsonKind::kAbsent);
      JsonbValue unknown;
      if (static_cast<int>(JsonContainerSize(object)) != found &&
          FindUnknownKey(object, core::kEventKeys.begin(), core::kEventKeys.size(), &unknown))
        shape.unknown_key = StringOf(unknown);
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

// The INSERT statement for a table with triggers (EventsWriter does not fire
// them). ORDER BY u.ord makes ids follow array order: the id default is
// evaluated row by row. Schema-qualified: it runs under the caller's
// search_path (work_marks.cpp says why).
const Oid kInsertArgTypes[] = {TEXTOID,       INT4ARRAYOID,  TEXTARRAYOID,  JSONBARRAYOID,
                               JSONBOID,      JSONBARRAYOID, TIMESTAMPTZOID, BYTEAARRAYOID};
SavedPlan g_insert_plan(commit_sql::kInsert, 8, kInsertArgTypes);

struct PreparedRows {
  std::vector<Datum> versions, names, data, pii, hashes;
  std::unique_ptr<bool[]> pii_nulls;
  StreamHead head;  // the stream's head after these rows
};

PreparedRows PrepareRows(std::string_view stream, const StreamHead& head, const std::vector<EventInput>& events,
                         Jsonb* meta, TimestampTz created) {
  PreparedRows rows;
  const std::size_t count = events.size();
  rows.pii_nulls = std::make_unique<bool[]>(count);
  // One digest context per backend: allocating one per commit shows in the profile.
  static core::EventHasher hasher;
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
  rows.head.version = head.version + static_cast<int32>(count);
  rows.head.hash = prev;
  return rows;
}

// Copies the rows the INSERT statement returned to the result and collects
// (id, name); the names are the input's, which outlive SPI's memory.
std::vector<core::EventRef> EmitInsertedRows(ReturnSetInfo* result, const std::vector<EventInput>& events) {
  std::vector<core::EventRef> refs;
  const uint64 count = SPI_processed;
  refs.reserve(count);
  for (uint64 i = 0; i < count && i < events.size(); ++i) {
    const int64 id = Guard([result, i] {
      HeapTuple row = SPI_tuptable->vals[i];
      tuplestore_puttuple(result->setResult, row);
      bool is_null;
      return DatumGetInt64(SPI_getbinval(row, SPI_tuptable->tupdesc, 1, &is_null));
    });
    refs.push_back(core::EventRef{id, events[i].name});
  }
  return refs;
}

std::vector<core::EventRef> InsertWithStatement(Datum stream, Jsonb* meta, TimestampTz created, PreparedRows& rows,
                                                const std::vector<EventInput>& events, ReturnSetInfo* result) {
  SpiSession spi;
  Datum values[8] = {stream,
                     MakeArray(rows.versions, nullptr, INT4OID),
                     MakeArray(rows.names, nullptr, TEXTOID),
                     MakeArray(rows.data, nullptr, JSONBOID),
                     JsonbPGetDatum(meta),
                     MakeArray(rows.pii, rows.pii_nulls.get(), JSONBOID),
                     TimestampTzGetDatum(created),
                     MakeArray(rows.hashes, nullptr, BYTEAOID)};
  Execute(g_insert_plan.Get(), values, nullptr, false, 0, SPI_OK_INSERT_RETURNING);
  std::vector<core::EventRef> refs = EmitInsertedRows(result, events);
  spi.Finish();
  return refs;
}

void Notify(std::string_view stream, const std::vector<core::EventRef>& refs) {
  const std::string payload = g_notify_payload == kNotifyPosition ? core::PositionNotifyPayload(refs)
                                                                   : core::CommitNotifyPayload(stream, refs);
  if (payload.empty()) return;
  const char* text = payload.c_str();
  Guard([text] { Async_Notify("act_commit", text); });
}

// Appends the events after head, which the caller read holding the stream's
// lock: no other writer can take these versions before this transaction ends.
std::vector<core::EventRef> AppendEvents(Datum stream_datum, std::string_view stream, const StreamHead& head,
                                         const std::vector<EventInput>& events, Jsonb* meta, ReturnSetInfo* result) {
  if (static_cast<long long>(head.version) + static_cast<long long>(events.size()) > INT_MAX)
    throw core::ValidationError("stream " + core::Quoted(stream) + " cannot take " + std::to_string(events.size()) +
                                " more events: versions are int4");
  const TimestampTz created = GetCurrentTransactionStartTimestamp();
  PreparedRows rows = PrepareRows(stream, head, events, meta, created);
  std::vector<core::EventRef> refs;
  EventsWriter writer;
  // Again under the insert lock, which act.set_partition's lock excludes:
  // taking it brought in any new setting (a relcache invalidation).
  RequireHostedStream(stream);
  if (writer.Usable()) {
    refs.reserve(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      const EventRow row{stream_datum, DatumGetInt32(rows.versions[i]), rows.names[i], events[i].data, meta,
                         events[i].pii, created, rows.hashes[i]};
      refs.push_back(core::EventRef{writer.Append(row, result), events[i].name});
    }
    Guard([] { CommandCounterIncrement(); });
  } else {
    refs = InsertWithStatement(stream_datum, meta, created, rows, events, result);
  }
  RememberWrittenHead(stream_datum, rows.head);
  return refs;
}

// Heads only grow and a cached head is a committed one (head_cache.hpp): a
// commit expecting a version the stream has already passed can never land,
// so it fails before it queues on the stream's lock behind the writer that
// beat it. Concurrent mode only, where the cache is.
void FailIfAlreadyPassed(Datum stream_datum, std::string_view stream, long long expected) {
  const std::optional<StreamHead> cached = CachedHead(stream_datum);
  if (!cached || cached->version <= expected) return;
  CountNow(Counter::kConflicts, 1);
  throw core::ConcurrencyError(std::string(stream), expected, cached->version);
}

// The head to append to, with the stream's lock held unless `checking_only`;
// a version conflict is counted as it is raised.
StreamHead CheckedHead(Datum stream_datum, std::string_view stream, std::optional<long long> expected,
                       bool checking_only) {
  try {
    // With the stream's lock held, a cached head is the committed head.
    const std::optional<StreamHead> cached = checking_only ? std::nullopt : CachedHead(stream_datum);
    const StreamHead head = cached ? *cached : CurrentHead(stream_datum, std::string(stream), expected);
    if (head.closed) throw core::ClosedStreamError(std::string(stream));
    if (expected && *expected != head.version) throw core::ConcurrencyError(std::string(stream), *expected, head.version);
    return head;
  } catch (const core::ConcurrencyError&) {
    CountNow(Counter::kConflicts, 1);
    throw;
  }
}

std::vector<SentEvent> SentEvents(const std::vector<EventInput>& events) {
  std::vector<SentEvent> sent;
  sent.reserve(events.size());
  for (const EventInput& event : events) sent.push_back(SentEvent{event.name, event.data});
  return sent;
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_commit) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("stream must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::string_view stream = pg::TextArg(fcinfo, 0);
  core::ValidateStreamName(stream);
  pg::RequireHostedStream(stream);
  if (PG_ARGISNULL(1))
    throw core::ValidationError("events for stream " + core::Quoted(stream) + " must not be null",
                                core::sqlstate::kNullValueNotAllowed);
  // Before anything is detoasted or parsed: a huge payload costs nothing more.
  core::ValidateCommitSize(stream, pg::ArgumentBytes(fcinfo, 1), PG_ARGISNULL(2) ? 0 : pg::ArgumentBytes(fcinfo, 2));
  const std::vector<pg::EventInput> events = pg::ReadEvents(stream, pg::JsonbArg(fcinfo, 1));
  Jsonb* meta = PG_ARGISNULL(2) ? pg::EmptyObject() : pg::JsonbArg(fcinfo, 2);
  core::ValidateMeta(stream, pg::RootKind(meta));
  pg::ValidateCorrelation(stream, meta);
  const std::optional<std::string> key = pg::IdempotencyKeyOf(stream, meta);
  const std::optional<long long> expected =
      PG_ARGISNULL(3) ? std::nullopt : std::optional<long long>(pg::ExpectedVersionArg(fcinfo));
  core::ValidateExpectedVersion(stream, expected);

  ReturnSetInfo* result = pg::Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });
  const Datum stream_datum = PG_GETARG_DATUM(0);

  if (!events.empty()) {
    // An empty list only checks: it needs no lock. Concurrent mode needs no
    // fence: readers stay at or below the in-flight horizon instead. The
    // stream's lock before the registry's: a transaction that committed to
    // this stream may go on to subscribe (registry exclusive); and never
    // waiting for the registry on a stream lock just taken, so that a
    // transaction that subscribed may go on to commit (locks.hpp).
    pg::RequirePrimary("act.commit");
    try {
      if (expected) pg::FailIfAlreadyPassed(stream_datum, stream, *expected);
      if (!pg::ConcurrentMode()) pg::TakeCommitFence();
      if (expected && pg::ConcurrentMode()) {
        const std::function<void()> recheck = [stream_datum, stream, &expected] {
          pg::FailIfAlreadyPassed(stream_datum, stream, *expected);
        };
        pg::LockStreamAndRegistry(stream_datum, &recheck);
      } else {
        pg::LockStreamAndRegistry(stream_datum);
      }
    } catch (const core::ConcurrencyError&) {
      // The retry of a keyed commit that landed meets the head it moved.
      if (key && pg::ReplayKeyedCommit(stream_datum, stream, *key, pg::SentEvents(events), result)) return Datum(0);
      throw;
    }
    // Under the stream's lock no commit with this key can be in flight: the
    // key answers before the stream's head is checked (a retry finds it moved,
    // or closed since).
    if (key && pg::ReplayKeyedCommit(stream_datum, stream, *key, pg::SentEvents(events), result)) return Datum(0);
  }
  // With the stream's lock held, a cached head is the committed head.
  const pg::StreamHead head = pg::CheckedHead(stream_datum, stream, expected, events.empty());
  if (!events.empty()) {
    pg::PublishInflight();  // before the insert takes ids
    const std::vector<core::EventRef> refs = pg::AppendEvents(stream_datum, stream, head, events, meta, result);
    if (!refs.empty()) pg::NoteIdsTaken(refs.back().id);  // ids follow the array's order
    pg::MarkSubscriptions(stream_datum, stream, refs);
    if (pg::g_notify_enabled) pg::Notify(stream, refs);
    pg::Count(pg::Counter::kCommits, 1);
    pg::Count(pg::Counter::kEvents, refs.size());
  }
  return Datum(0);
}
