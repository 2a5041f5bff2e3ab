#include "drain_events.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "event_tags.hpp"
#include "index_scan.hpp"
#include "regex_cache.hpp"
#include "stream_head.hpp"

extern "C" {
#include "access/detoast.h"
#include "utils/json.h"
#include "utils/numeric.h"
}

namespace act::pg {
namespace {

constexpr std::string_view kSnapshot = "__snapshot__";
constexpr std::string_view kTombstone = "__tombstone__";

// A literal source: its (stream, version) range from the first version above
// `after` (ids grow with versions within a stream). Otherwise the id range
// (after, horizon] of the whole log.
IndexScan ScanOf(const DrainScope& scope) {
  if (scope.source && !scope.pattern) {
    const int32 from = FirstVersionAfter(*scope.source, scope.after, ScanSnapshot::kActive);
    const IndexKey keys[2] = {{1, BTEqualStrategyNumber, F_TEXTEQ, *scope.source},
                              {2, BTGreaterEqualStrategyNumber, F_INT4GE, Int32GetDatum(from)}};
    return IndexScan("events", "events_stream_version_key", keys, 2, ScanSnapshot::kActive);
  }
  const IndexKey keys[2] = {{1, BTGreaterStrategyNumber, F_INT8GT, Int64GetDatum(scope.after)},
                            {1, BTLessEqualStrategyNumber, F_INT8LE, Int64GetDatum(scope.horizon)}};
  return IndexScan("events", "events_pkey", keys, 2, ScanSnapshot::kActive);
}

struct Columns {
  int id, stream, version, name, data, meta, pii, created, last;
  explicit Columns(const IndexScan& scan)
      : id(scan.Column("id")),
        stream(scan.Column("stream")),
        version(scan.Column("version")),
        name(scan.Column("name")),
        data(scan.Column("data")),
        meta(scan.Column("meta")),
        pii(scan.Column("pii")),
        created(scan.Column("created")),
        last(std::max({id, stream, version, name, data, meta, pii, created})) {}
};

// One event's values, as deformed from its row (pointers into the buffer).
struct RowValues {
  Datum id, stream, version, name, data, meta, pii, created;
  bool pii_null;
  const std::vector<std::string>* tags;  // empty: the object has no "tags" key
};

// Appends one event object to the array under construction. Every value the
// parse state points to is copied into the current memory context first: the
// row's buffer is let go at the next row.
void PushEvent(JsonbParseState** state, const RowValues* row) {
  Guard([state, row] {
    auto key = [state](const char* text) {
      JsonbValue value;
      value.type = jbvString;
      value.val.string.val = const_cast<char*>(text);
      value.val.string.len = static_cast<int>(strlen(text));
      pushJsonbValue(state, WJB_KEY, &value);
    };
    auto number = [state](int64 n) {
      JsonbValue value;
      value.type = jbvNumeric;
      value.val.numeric = int64_to_numeric(n);
      pushJsonbValue(state, WJB_VALUE, &value);
    };
    auto string = [state](Datum datum) {
      varlena* copy = pg_detoast_datum_copy(reinterpret_cast<struct varlena*>(DatumGetPointer(datum)));
      JsonbValue value;
      value.type = jbvString;
      value.val.string.val = VARDATA(copy);
      value.val.string.len = static_cast<int>(VARSIZE(copy) - VARHDRSZ);
      pushJsonbValue(state, WJB_VALUE, &value);
    };
    // A nested jsonb is unpacked into the state; its strings stay pointers
    // into this copy.
    auto json = [state](Datum datum) {
      Jsonb* copy = reinterpret_cast<Jsonb*>(pg_detoast_datum_copy(reinterpret_cast<struct varlena*>(DatumGetPointer(datum))));
      JsonbValue value;
      value.type = jbvBinary;
      value.val.binary.data = &copy->root;
      value.val.binary.len = static_cast<int>(VARSIZE(copy) - VARHDRSZ);
      pushJsonbValue(state, WJB_VALUE, &value);
    };
    // Keys in jsonb's own order (shorter first, then bytewise): the object's
    // closing sort then finds them sorted and only checks that they are.
    pushJsonbValue(state, WJB_BEGIN_OBJECT, nullptr);
    key("id");
    number(DatumGetInt64(row->id));
    if (!row->pii_null) {
      key("pii");
      json(row->pii);
    }
    key("data");
    json(row->data);
    key("meta");
    json(row->meta);
    key("name");
    string(row->name);
    if (!row->tags->empty()) {
      key("tags");
      pushJsonbValue(state, WJB_BEGIN_ARRAY, nullptr);
      for (const std::string& tag : *row->tags) {
        JsonbValue value;
        value.type = jbvString;
        value.val.string.val = pnstrdup(tag.data(), tag.size());
        value.val.string.len = static_cast<int>(tag.size());
        pushJsonbValue(state, WJB_ELEM, &value);
      }
      pushJsonbValue(state, WJB_END_ARRAY, nullptr);
    }
    key("stream");
    string(row->stream);
    key("created");
    JsonbValue created;
    created.type = jbvString;
    created.val.string.val = JsonEncodeDateTime(nullptr, row->created, TIMESTAMPTZOID, nullptr);
    created.val.string.len = static_cast<int>(strlen(created.val.string.val));
    pushJsonbValue(state, WJB_VALUE, &created);
    key("version");
    number(DatumGetInt32(row->version));
    pushJsonbValue(state, WJB_END_OBJECT, nullptr);
  });
}

// Room in an event object for what its values do not count: the keys, the
// two numbers, the created string, the object's and the array's entries and
// their alignment (under 300 bytes).
constexpr int64 kEventOverheadBytes = 512;

// An upper bound of the event object's size in the jsonb array: each value's
// uncompressed size (read from its header or TOAST pointer, nothing is
// decompressed) plus the fixed overhead. A nested jsonb keeps its encoding
// when pushed, so this bounds what jsonb's 256 MB array limit counts; the
// JSON text a client receives is of the same order (docs/reference.md).
int64 EventBytes(const RowValues* row) {
  return Guard([row] {
    int64 bytes = kEventOverheadBytes + static_cast<int64>(toast_raw_datum_size(row->stream)) +
                  static_cast<int64>(toast_raw_datum_size(row->name)) +
                  static_cast<int64>(toast_raw_datum_size(row->data)) +
                  static_cast<int64>(toast_raw_datum_size(row->meta));
    if (!row->pii_null) bytes += static_cast<int64>(toast_raw_datum_size(row->pii));
    for (const std::string& tag : *row->tags) bytes += static_cast<int64>(tag.size()) + 16;
    return bytes;
  });
}

bool Wanted(std::string_view name, const std::optional<std::vector<std::string>>* names) {
  if (name == kSnapshot || name == kTombstone) return false;
  if (names == nullptr || !names->has_value()) return true;
  const std::vector<std::string>& list = **names;
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

Datum DrainEvents(const DrainScope& scope) {
  JsonbParseState* state = nullptr;
  JsonbParseState** state_ref = &state;
  Guard([state_ref] { pushJsonbValue(state_ref, WJB_BEGIN_ARRAY, nullptr); });
  const bool one_stream = scope.source && !scope.pattern;
  const std::string_view pattern = scope.pattern ? VarlenaBytes(*scope.source) : std::string_view();
  int32 taken = 0;
  int64 bytes = 0;
  if (scope.max_events > 0 && scope.after < scope.horizon) {
    IndexScan scan = ScanOf(scope);
    const Columns columns(scan);
    const EventTagReader tag_reader;
    std::vector<std::string> tags;
    RowValues row{};
    row.tags = &tags;
    while (taken < scope.max_events && scan.NextDeformed(columns.last)) {
      bool is_null = false;
      row.id = scan.DeformedAt(columns.id, &is_null);
      // One stream's ids grow with its versions: the rest is above the horizon too.
      if (DatumGetInt64(row.id) > scope.horizon) break;
      // A short stream's range starts at its first version (FirstVersionAfter).
      if (DatumGetInt64(row.id) <= scope.after) continue;
      row.name = scan.DeformedAt(columns.name, &is_null);
      if (!Wanted(VarlenaBytes(row.name), scope.names)) continue;
      row.stream = scan.DeformedAt(columns.stream, &is_null);
      if (!one_stream && scope.pattern && !PatternMatches(pattern, VarlenaBytes(row.stream))) continue;
      row.version = scan.DeformedAt(columns.version, &is_null);
      row.data = scan.DeformedAt(columns.data, &is_null);
      row.meta = scan.DeformedAt(columns.meta, &is_null);
      row.created = scan.DeformedAt(columns.created, &is_null);
      row.pii = scan.DeformedAt(columns.pii, &row.pii_null);
      row.pii_null = row.pii_null || scope.hide_pii;
      tag_reader.Read(DatumGetInt64(row.id), tags);
      const int64 size = EventBytes(&row);
      // Always one event, so a row whose next event alone is over budget still moves.
      if (taken > 0 && bytes + size > scope.max_bytes) break;
      PushEvent(state_ref, &row);
      bytes += size;
      ++taken;
    }
  }
  return Guard([state_ref] {
    JsonbValue* array = pushJsonbValue(state_ref, WJB_END_ARRAY, nullptr);
    return JsonbPGetDatum(JsonbValueToJsonb(array));
  });
}

}  // namespace act::pg
