#include "stream_append.hpp"

#include <climits>
#include <memory>
#include <string>

#include "act/core/errors.hpp"
#include "act/core/event_hash.hpp"
#include "act/core/notify_payload.hpp"
#include "act/core/tags.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "arrays.hpp"
#include "counters.hpp"
#include "events_writer.hpp"
#include "head_cache.hpp"
#include "hosted_partition.hpp"
#include "jsonb_access.hpp"
#include "log/stream_append_sql.hpp"
#include "settings.hpp"
#include "spi.hpp"
#include "timestamps.hpp"

namespace act::pg {
namespace {

std::vector<std::string_view> ReadTags(JsonbContainer* object, const std::string& where) {
  JsonbValue list;
  if (!FindKey(object, "tags", &list)) return {};
  const core::JsonKind list_kind = KindOf(list);
  std::vector<core::TagInput> inputs;
  if (list_kind == core::JsonKind::kArray) {
    JsonbContainer* array = list.val.binary.data;
    const uint32 count = JsonContainerSize(array);
    inputs.reserve(count);
    for (uint32 i = 0; i < count; ++i) {
      JsonbValue* element = Guard([array, i] { return getIthJsonbValueFromContainer(array, i); });
      core::TagInput input{KindOf(*element), {}};
      if (input.kind == core::JsonKind::kString) input.text = StringOf(*element);
      inputs.push_back(input);
    }
  }
  core::ValidateTags(where, list_kind, inputs);
  std::vector<std::string_view> tags;
  tags.reserve(inputs.size());
  for (const core::TagInput& input : inputs) tags.push_back(input.text);
  return tags;
}

// The stream an act.append element names.
std::string_view ReadStream(JsonbContainer* object, uint32 index) {
  const std::string where = "events[" + std::to_string(index) + "]";
  JsonbValue stream;
  if (!FindKey(object, "stream", &stream) || stream.type == jbvNull)
    throw core::ValidationError(where + " has no \"stream\"");
  if (stream.type != jbvString)
    throw core::ValidationError(where + ": \"stream\" must be a string, not " +
                                std::string(core::JsonKindName(KindOf(stream))));
  const std::string_view name = StringOf(stream);
  core::ValidateStreamName(name, where + ".stream");
  return name;
}

// `stream` is null for act.append, whose elements name their streams.
std::vector<EventInput> ReadEventArray(const std::string_view* stream, Jsonb* events) {
  const core::JsonKind root = RootKind(events);
  if (root != core::JsonKind::kArray)
    throw core::ValidationError((stream ? "events for stream " + core::Quoted(*stream) : std::string("events")) +
                                " must be a JSON array, not " + std::string(core::JsonKindName(root)));
  const std::initializer_list<const char*> known = stream ? core::kEventKeys : core::kAppendEventKeys;
  const uint32 count = JB_ROOT_COUNT(events);
  std::vector<EventInput> inputs;
  inputs.reserve(count);
  Jsonb* empty = nullptr;
  for (uint32 index = 0; index < count; ++index) {
    JsonbValue* element = Guard([events, index] { return getIthJsonbValueFromContainer(&events->root, index); });
    core::EventShape shape;
    shape.element = KindOf(*element);
    std::string_view element_stream = stream ? *stream : std::string_view();
    JsonbValue name, data, pii;
    if (shape.element == core::JsonKind::kObject) {
      JsonbContainer* object = element->val.binary.data;
      if (!stream) element_stream = ReadStream(object, index);
      if (FindKey(object, "name", &name)) {
        shape.name_kind = KindOf(name);
        if (shape.name_kind == core::JsonKind::kString) shape.name = StringOf(name);
      }
      if (FindKey(object, "data", &data)) shape.data_kind = KindOf(data);
      if (FindKey(object, "pii", &pii)) shape.pii_kind = KindOf(pii);
      JsonbValue tags, unknown;
      const int found = (shape.name_kind != core::JsonKind::kAbsent) + (shape.data_kind != core::JsonKind::kAbsent) +
                        (shape.pii_kind != core::JsonKind::kAbsent) + FindKey(object, "tags", &tags) + (stream == nullptr);
      if (static_cast<int>(JsonContainerSize(object)) != found &&
          FindUnknownKey(object, known.begin(), known.size(), &unknown))
        shape.unknown_key = StringOf(unknown);
    } else if (!stream) {
      throw core::ValidationError("events[" + std::to_string(index) + "] must be a JSON object, not " +
                                  std::string(core::JsonKindName(shape.element)));
    }
    core::ValidateEvent(element_stream, index, shape, known);
    EventInput input{element_stream, shape.name, nullptr, nullptr, {}};
    input.tags = ReadTags(element->val.binary.data, core::EventPlace(element_stream, index));
    for (const std::string_view tag : input.tags) RequireHostedTag(tag, core::EventPlace(element_stream, index));
    if (shape.data_kind == core::JsonKind::kObject) {
      input.data = ToJsonb(&data);
    } else {
      if (empty == nullptr) empty = EmptyObject();
      input.data = empty;
    }
    if (shape.pii_kind == core::JsonKind::kObject) input.pii = ToJsonb(&pii);
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// The INSERT statement for a table with triggers (EventsWriter does not fire
// them). ORDER BY u.ord makes ids follow array order: the id default is
// evaluated row by row. Schema-qualified: it runs under the caller's
// search_path (work_marks.cpp says why).
const Oid kInsertArgTypes[] = {TEXTOID,       INT4ARRAYOID,  TEXTARRAYOID,  JSONBARRAYOID,
                               JSONBOID,      JSONBARRAYOID, TIMESTAMPTZOID, BYTEAARRAYOID};
SavedPlan g_insert_plan(stream_append_sql::kInsert, 8, kInsertArgTypes);
const Oid kInsertTagsArgTypes[] = {INT8ARRAYOID, INT2ARRAYOID, TEXTARRAYOID};
SavedPlan g_insert_tags_plan(stream_append_sql::kInsertTags, 3, kInsertTagsArgTypes, PlanMode::kGeneric);

struct PreparedRows {
  std::vector<Datum> versions, names, data, pii, hashes;
  std::unique_ptr<bool[]> pii_nulls;
  StreamHead head;  // the stream's head after these rows
};

PreparedRows PrepareRows(std::string_view stream, const StreamHead& head, std::span<const EventInput> events,
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
    fields.tags = event.tags;
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
std::vector<core::EventRef> EmitInsertedRows(ReturnSetInfo* result, std::span<const EventInput> events) {
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
                                                std::span<const EventInput> events, ReturnSetInfo* result) {
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

// One statement for every tag of the run; untagged runs pay nothing.
void InsertTags(std::span<const EventInput> events, const std::vector<core::EventRef>& refs) {
  std::vector<Datum> ids, ords, tags;
  for (std::size_t i = 0; i < events.size() && i < refs.size(); ++i)
    for (std::size_t ord = 0; ord < events[i].tags.size(); ++ord) {
      ids.push_back(Int64GetDatum(refs[i].id));
      ords.push_back(Int16GetDatum(static_cast<int16>(ord)));
      tags.push_back(MakeText(events[i].tags[ord]));
    }
  if (ids.empty()) return;
  SpiSession spi;
  Datum values[3] = {MakeArray(ids, nullptr, INT8OID), MakeArray(ords, nullptr, INT2OID),
                     MakeArray(tags, nullptr, TEXTOID)};
  Execute(g_insert_tags_plan.Get(), values, nullptr, false, 0, SPI_OK_INSERT);
  spi.Finish();
}

}  // namespace

Jsonb* EmptyObject() {
  return Guard([] { return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum("{}"))); });
}

void ValidateCorrelation(std::string_view stream, Jsonb* meta) {
  JsonbValue correlation;
  if (!FindKey(&meta->root, "correlation", &correlation)) return;
  const std::size_t bytes = correlation.type == jbvString ? StringOf(correlation).size()
                            : correlation.type == jbvBinary ? CanonicalText(ToJsonb(&correlation)).size()
                                                            : 0;
  core::ValidateIndexedBytes(bytes, "meta.correlation for stream " + core::Quoted(stream), core::kMaxCorrelationBytes);
}

std::vector<EventInput> ReadEvents(std::string_view stream, Jsonb* events) { return ReadEventArray(&stream, events); }

std::vector<EventInput> ReadStreamEvents(Jsonb* events) { return ReadEventArray(nullptr, events); }

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

std::vector<core::EventRef> AppendEvents(Datum stream_datum, std::string_view stream, StreamHead& head,
                                         std::span<const EventInput> events, Jsonb* meta, ReturnSetInfo* result) {
  if (static_cast<long long>(head.version) + static_cast<long long>(events.size()) > INT_MAX)
    throw core::ValidationError("stream " + core::Quoted(stream) + " cannot take " + std::to_string(events.size()) +
                                " more events: versions are int4");
  const TimestampTz created = GetCurrentTransactionStartTimestamp();
  PreparedRows rows = PrepareRows(stream, head, events, meta, created);
  std::vector<core::EventRef> refs;
  {
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
  }
  InsertTags(events, refs);
  RememberWrittenHead(stream_datum, rows.head);
  head = rows.head;
  return refs;
}

void Notify(std::string_view stream, const std::vector<core::EventRef>& refs) {
  const std::string payload = g_notify_payload == kNotifyPosition ? core::PositionNotifyPayload(refs)
                                                                   : core::CommitNotifyPayload(stream, refs);
  if (payload.empty()) return;
  const char* text = payload.c_str();
  Guard([text] { Async_Notify("act_commit", text); });
}

}  // namespace act::pg
