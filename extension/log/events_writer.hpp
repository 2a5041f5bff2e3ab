#pragma once
// Appends rows to act.events through the table access method and the
// indexes, without the executor: a commit inserts a few rows whose version
// conflicts the stream lock has ruled out, so an SPI INSERT's plan start-up
// and ON CONFLICT's speculative insertion would cost without use.
#include "error_bridge.hpp"

namespace act::pg {

// One row of act.events as act.commit builds it; the id comes from the writer.
struct EventRow {
  Datum stream;  // text
  int32 version;
  Datum name;  // text
  Jsonb* data;
  Jsonb* meta;
  Jsonb* pii;  // null: SQL NULL
  TimestampTz created;
  Datum hash;  // bytea
};

class EventsWriter {
 public:
  // Opens act.events for inserting, with its indexes.
  EventsWriter();
  ~EventsWriter();
  EventsWriter(const EventsWriter&) = delete;
  EventsWriter& operator=(const EventsWriter&) = delete;

  // False when act.events has triggers: only an INSERT statement fires them.
  bool Usable() const { return usable_; }

  // Inserts the row under the next id and adds it to result (a materialized
  // set of act.events rows); returns the id.
  int64 Append(const EventRow& row, ReturnSetInfo* result);

 private:
  Relation table_ = nullptr;
  Oid sequence_ = InvalidOid;
  EState* estate_ = nullptr;
  ResultRelInfo* target_ = nullptr;
  TupleTableSlot* slot_ = nullptr;
  bool usable_ = false;
};

}  // namespace act::pg
