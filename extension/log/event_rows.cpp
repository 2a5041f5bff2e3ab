#include "event_rows.hpp"

#include <stdexcept>

#include "arrays.hpp"

namespace act::pg {
namespace {

IndexScan ScanOf(const EventRows::InStream& scope) {
  if (!scope.stream) return IndexScan("events", "events_stream_version_key", nullptr, 0, ScanSnapshot::kActive);
  const IndexKey key{1, BTEqualStrategyNumber, F_TEXTEQ, MakeText(*scope.stream)};
  return IndexScan("events", "events_stream_version_key", &key, 1, ScanSnapshot::kActive);
}

IndexScan ScanOf(const EventRows::IdRange& range) {
  const IndexKey keys[2] = {{1, BTGreaterEqualStrategyNumber, F_INT8GE, Int64GetDatum(range.first)},
                            {1, BTLessEqualStrategyNumber, F_INT8LE, Int64GetDatum(range.last)}};
  return IndexScan("events", "events_pkey", keys, 2, ScanSnapshot::kActive);
}

}  // namespace

EventRows::EventRows(const InStream& scope) : scan_(ScanOf(scope)) { Prepare(); }

EventRows::EventRows(const IdRange& range) : scan_(ScanOf(range)) { Prepare(); }

void EventRows::Prepare() {
  columns_.id = scan_.Column("id");
  columns_.stream = scan_.Column("stream");
  columns_.version = scan_.Column("version");
  columns_.name = scan_.Column("name");
  columns_.data = scan_.Column("data");
  columns_.meta = scan_.Column("meta");
  columns_.created = scan_.Column("created");
  columns_.hash = scan_.Column("hash");
  columns_.last = 0;
  for (int column : {columns_.id, columns_.stream, columns_.version, columns_.name, columns_.data, columns_.meta,
                     columns_.created, columns_.hash})
    if (column > columns_.last) columns_.last = column;
}

bool EventRows::Next(EventRow& row) {
  detoasted_.Reset();
  if (!scan_.NextDeformed(columns_.last)) return false;
  bool any_null = false;
  auto at = [this, &any_null](int column) {
    bool is_null = false;
    const Datum value = scan_.DeformedAt(column, &is_null);
    any_null |= is_null;
    return value;
  };
  row.id = DatumGetInt64(at(columns_.id));
  row.version = DatumGetInt32(at(columns_.version));
  row.created = DatumGetTimestampTz(at(columns_.created));
  const Datum stream = at(columns_.stream);
  const Datum name = at(columns_.name);
  const Datum data = at(columns_.data);
  const Datum meta = at(columns_.meta);
  const Datum hash = at(columns_.hash);
  // NOT NULL columns: a NULL means the table is not what this code expects.
  if (any_null) throw std::runtime_error("pg_act: act.events has a NULL where a value is required");
  row.stream = detoasted_.Bytes(stream);
  row.name = detoasted_.Bytes(name);
  row.data = detoasted_.Bytes(data);
  row.meta = detoasted_.Bytes(meta);
  row.hash = detoasted_.Bytes(hash);
  tag_reader_.Read(row.id, row.tags);
  return true;
}

}  // namespace act::pg
