#pragma once
// Reading act.events rows straight through an index, without the executor
// or SPI, for the functions that walk the whole log or a whole stream
// (act.verify: millions of rows, where a plan's per-row cost would dominate).
//
//   EventRows rows(EventRows::InStream{"order-1"});    // one stream, by version
//   EventRows rows(EventRows::InStream{});             // every stream, by (stream, version)
//   EventRows rows(EventRows::IdRange{first, last});   // ids first..last, in id order
//   EventRow row;
//   while (rows.Next(row)) ...
//
// Rows are those the calling statement's snapshot sees (ScanSnapshot::kActive),
// as a STABLE SQL function's query would. The stream order is the index's:
// the database's collation, so streams come grouped, but not necessarily in
// "C" order. A row's views point into the table's buffer (or, for a value
// stored compressed or out of line, into memory the reader owns) and stay
// valid until the next Next() or the reader's end; copy what must outlive
// that. Next() raises Postgres errors as PgError (a cancel between rows
// included), so a caller needs no Guard of its own.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "detoast_arena.hpp"
#include "event_tags.hpp"
#include "index_scan.hpp"

namespace act::pg {

// One event as stored; jsonb values are their bytes after the varlena header
// (the root container, as JsonbTextRenderer reads it).
struct EventRow {
  std::int64_t id = 0;
  std::string_view stream;
  std::int32_t version = 0;
  std::string_view name;
  std::string_view data;
  std::string_view meta;
  TimestampTz created = 0;  // Postgres microseconds since 2000-01-01
  std::string_view hash;    // as stored: 32 bytes unless tampered with
  std::vector<std::string> tags;  // act.event_tags, in the order given; empty: untagged
};

class EventRows {
 public:
  struct InStream {
    std::optional<std::string> stream;  // none: every stream
  };
  struct IdRange {
    std::int64_t first;
    std::int64_t last;
  };

  explicit EventRows(const InStream& scope);
  explicit EventRows(const IdRange& range);
  EventRows(const EventRows&) = delete;
  EventRows& operator=(const EventRows&) = delete;

  // The next row into `row`; false at the end.
  bool Next(EventRow& row);

 private:
  struct Columns {
    int id, stream, version, name, data, meta, created, hash, last;
  };
  void Prepare();

  IndexScan scan_;
  Columns columns_;
  EventTagReader tag_reader_;
  DetoastArena detoasted_;  // values read out of TOAST, freed row by row
};

}  // namespace act::pg
