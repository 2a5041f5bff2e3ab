// act.verify(stream): recomputes the hash chain of one stream, or of every
// stream, from the stored rows (docs/hash-chain.md). Each event is checked
// against the stored hash of the event before it, so one edit reports one
// position; a stream must start at version 0 or at its recorded anchor, and
// its versions must be contiguous. The rows come through the (stream,
// version) index and are hashed as they come: no query, no text values.
#include <cstring>
#include <optional>
#include <string>

#include "act/core/event_hash.hpp"
#include "arrays.hpp"
#include "chain_links.hpp"
#include "error_bridge.hpp"
#include "event_rehash.hpp"
#include "event_rows.hpp"
#include "hosted_partition.hpp"
#include "jsonb_access.hpp"

extern "C" {
#include "catalog/pg_collation_d.h"
#include "catalog/pg_operator_d.h"
#include "utils/tuplesort.h"
}

namespace act::pg {
namespace {

struct Verdict {
  std::string stream;
  std::int64_t events = 0;
  std::optional<std::int32_t> first_bad_version;
};

// The result rows, one per stream in "C" order. The index gives streams in
// the database's collation, so rows of the whole log go through a sort (of
// one row per stream, spilling past work_mem like the result itself).
class Verdicts {
 public:
  Verdicts(ReturnSetInfo* result, bool sort) : result_(result) {
    Verdicts* self = this;
    Guard([self, sort] {
      self->slot_ = MakeSingleTupleTableSlot(self->result_->setDesc, &TTSOpsMinimalTuple);
      if (!sort) return;
      AttrNumber column = 1;
      Oid less = TextLessOperator;
      Oid collation = C_COLLATION_OID;
      bool nulls_first = false;
      self->sort_ = tuplesort_begin_heap(self->result_->setDesc, 1, &column, &less, &collation, &nulls_first, work_mem,
                                         nullptr, TUPLESORT_NONE);
    });
  }
  ~Verdicts() {
    Verdicts* self = this;
    try {
      Guard([self] {
        if (self->sort_ != nullptr) tuplesort_end(self->sort_);
        if (self->slot_ != nullptr) ExecDropSingleTupleTableSlot(self->slot_);
      });
    } catch (...) {
      // Only during an abort already under way, which frees them.
    }
  }
  Verdicts(const Verdicts&) = delete;
  Verdicts& operator=(const Verdicts&) = delete;

  void Add(const Verdict& verdict) {
    Verdicts* self = this;
    const char* stream = verdict.stream.data();
    const int stream_size = static_cast<int>(verdict.stream.size());
    const std::int64_t events = verdict.events;
    const bool valid = !verdict.first_bad_version;
    const std::int32_t first_bad = verdict.first_bad_version.value_or(0);
    Guard([self, stream, stream_size, events, valid, first_bad] {
      TupleTableSlot* slot = self->slot_;
      ExecClearTuple(slot);
      text* name = cstring_to_text_with_len(stream, stream_size);
      slot->tts_values[0] = PointerGetDatum(name);
      slot->tts_values[1] = Int64GetDatum(events);
      slot->tts_values[2] = BoolGetDatum(valid);
      slot->tts_values[3] = Int32GetDatum(first_bad);
      slot->tts_isnull[0] = slot->tts_isnull[1] = slot->tts_isnull[2] = false;
      slot->tts_isnull[3] = valid;
      ExecStoreVirtualTuple(slot);
      if (self->sort_ != nullptr)
        tuplesort_puttupleslot(self->sort_, slot);  // copies the row
      else
        tuplestore_puttupleslot(self->result_->setResult, slot);
      ExecClearTuple(slot);
      pfree(name);
    });
  }

  void Finish() {
    if (sort_ == nullptr) return;
    Verdicts* self = this;
    Guard([self] {
      tuplesort_performsort(self->sort_);
      while (tuplesort_gettupleslot(self->sort_, true, false, self->slot_, nullptr))
        tuplestore_puttupleslot(self->result_->setResult, self->slot_);
      ExecClearTuple(self->slot_);
      tuplesort_end(self->sort_);
      self->sort_ = nullptr;
    });
  }

 private:
  ReturnSetInfo* result_;
  TupleTableSlot* slot_ = nullptr;
  Tuplesortstate* sort_ = nullptr;
};

bool SameHash(std::string_view stored, const core::Hash& computed) {
  return stored.size() == computed.size() && memcmp(stored.data(), computed.data(), computed.size()) == 0;
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_verify) {
  ReturnSetInfo* result = pg::Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });
  pg::EventRows::InStream scope;
  if (!PG_ARGISNULL(0)) {
    scope.stream = std::string(pg::TextArg(fcinfo, 0));
    pg::RequireHostedStream(*scope.stream);
  }
  // One stream gives at most one row: nothing to sort.
  pg::Verdicts verdicts(result, /*sort=*/!scope.stream);
  pg::EventRows rows(scope);
  pg::EventRehasher rehasher;

  pg::Verdict current;
  bool started = false;
  std::optional<core::Hash> prev;  // the hash the current row must chain to; none: it cannot check out
  std::int32_t last_version = 0;
  pg::EventRow row;
  while (rows.Next(row)) {
    bool in_order = true;
    if (!started || row.stream != current.stream) {
      if (started) verdicts.Add(current);
      started = true;
      current.stream.assign(row.stream);
      current.events = 0;
      current.first_bad_version.reset();
      prev = row.version == 0 ? std::optional<core::Hash>(core::kZeroHash) : pg::AnchorBefore(row.stream, row.version);
    } else {
      in_order = row.version == static_cast<std::int64_t>(last_version) + 1;
    }
    const bool ok = prev && in_order && pg::SameHash(row.hash, rehasher.Compute(*prev, row));
    ++current.events;
    if (!ok && !current.first_bad_version) current.first_bad_version = row.version;
    last_version = row.version;
    // The next event chains to this one's stored hash, right or wrong, so one
    // edit reports one position.
    if (row.hash.size() == core::kZeroHash.size()) {
      prev.emplace();
      memcpy(prev->data(), row.hash.data(), prev->size());
    } else {
      prev.reset();
    }
  }
  if (started) verdicts.Add(current);
  verdicts.Finish();
  return Datum(0);
}
