#include "events_writer.hpp"

#include <cstring>

extern "C" {
#include "commands/sequence.h"
#include "executor/executor.h"
}

#include "relations.hpp"

namespace act::pg {
namespace {

// act.events' columns in table order (sql/src/00_tables.sql); a table of any
// other shape is refused rather than written by position.
constexpr const char* kColumns[] = {"id", "stream", "version", "name", "data", "meta", "pii", "created", "hash"};
constexpr int kColumnCount = sizeof(kColumns) / sizeof(kColumns[0]);

void RequireEventsShape(TupleDesc desc) {
  bool matches = desc->natts == kColumnCount;
  for (int i = 0; matches && i < kColumnCount; ++i) {
    const Form_pg_attribute column = TupleDescAttr(desc, i);
    matches = !column->attisdropped && strcmp(NameStr(column->attname), kColumns[i]) == 0;
  }
  if (!matches) elog(ERROR, "pg_act: table act.events does not have the columns this library writes");
}

bool HasInsertTriggers(Relation table) {
  const TriggerDesc* triggers = table->trigdesc;
  return triggers != nullptr && (triggers->trig_insert_before_row || triggers->trig_insert_after_row ||
                                 triggers->trig_insert_instead_row || triggers->trig_insert_before_statement ||
                                 triggers->trig_insert_after_statement || triggers->trig_insert_new_table);
}

}  // namespace

EventsWriter::EventsWriter() {
  EventsWriter* self = this;
  Guard([self] {
    self->sequence_ = ActRelation("events_id_seq");
    self->table_ = table_open(ActRelation("events"), RowExclusiveLock);
    RequireEventsShape(RelationGetDescr(self->table_));
    self->usable_ = !HasInsertTriggers(self->table_);
    if (!self->usable_) return;
    self->estate_ = CreateExecutorState();
    self->target_ = makeNode(ResultRelInfo);
    InitResultRelInfo(self->target_, self->table_, 1, nullptr, 0);
    ExecOpenIndices(self->target_, false);
    self->slot_ = MakeSingleTupleTableSlot(RelationGetDescr(self->table_), &TTSOpsVirtual);
  });
}

EventsWriter::~EventsWriter() {
  EventsWriter* self = this;
  try {
    Guard([self] {
      if (self->slot_ != nullptr) ExecDropSingleTupleTableSlot(self->slot_);
      if (self->target_ != nullptr) ExecCloseIndices(self->target_);
      if (self->estate_ != nullptr) FreeExecutorState(self->estate_);
      if (self->table_ != nullptr) table_close(self->table_, NoLock);
    });
  } catch (...) {
    // Only during an abort already under way, which releases all of these.
  }
}

int64 EventsWriter::Append(const EventRow& row, ReturnSetInfo* result) {
  EventsWriter* self = this;
  const EventRow* input = &row;
  return Guard([self, input, result] {
    TupleTableSlot* slot = self->slot_;
    ExecClearTuple(slot);
    const int64 id = nextval_internal(self->sequence_, false);
    Datum* values = slot->tts_values;
    bool* nulls = slot->tts_isnull;
    values[0] = Int64GetDatum(id);
    values[1] = input->stream;
    values[2] = Int32GetDatum(input->version);
    values[3] = input->name;
    values[4] = JsonbPGetDatum(input->data);
    values[5] = JsonbPGetDatum(input->meta);
    values[6] = input->pii != nullptr ? JsonbPGetDatum(input->pii) : Datum(0);
    values[7] = TimestampTzGetDatum(input->created);
    values[8] = input->hash;
    for (int i = 0; i < kColumnCount; ++i) nulls[i] = false;
    nulls[6] = input->pii == nullptr;
    ExecStoreVirtualTuple(slot);
    table_tuple_insert(self->table_, slot, GetCurrentCommandId(true), 0, nullptr);
    // Per-tuple memory of the index expressions (meta ->> 'correlation').
    ResetPerTupleExprContext(self->estate_);
    List* recheck = ExecInsertIndexTuples(self->target_, slot, self->estate_, false, false, nullptr, NIL);
    list_free(recheck);
    tuplestore_putvalues(result->setResult, result->setDesc, values, nulls);
    return id;
  });
}

}  // namespace act::pg
