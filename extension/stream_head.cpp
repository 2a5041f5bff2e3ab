#include "stream_head.hpp"

#include "act/core/errors.hpp"
#include "spi.hpp"

namespace act::pg {
namespace {

const Oid kHeadArgTypes[] = {TEXTOID};
SavedPlan g_head_plan("SELECT version, name = '__tombstone__', hash FROM act.events "
                      "WHERE stream = $1 ORDER BY version DESC LIMIT 1",
                      1, kHeadArgTypes);

}  // namespace

StreamHead ReadHead(Datum stream, bool read_only) {
  Datum values[1] = {stream};
  Execute(g_head_plan.Get(), values, nullptr, read_only, 1, SPI_OK_SELECT);
  StreamHead head;
  if (SPI_processed == 0) return head;
  StreamHead* out = &head;
  Guard([out] {
    HeapTuple row = SPI_tuptable->vals[0];
    TupleDesc desc = SPI_tuptable->tupdesc;
    bool is_null;
    out->version = DatumGetInt32(SPI_getbinval(row, desc, 1, &is_null));
    out->closed = DatumGetBool(SPI_getbinval(row, desc, 2, &is_null));
    Datum hash = SPI_getbinval(row, desc, 3, &is_null);
    if (!is_null) {
      bytea* bytes = DatumGetByteaPP(hash);
      // A stored hash of the wrong length is tampering; verify reports it, the chain goes on from its bytes.
      memcpy(out->hash.data(), VARDATA_ANY(bytes), Min(VARSIZE_ANY_EXHDR(bytes), out->hash.size()));
    }
  });
  return head;
}

StreamHead ReadLatestHead(Datum stream) {
  Guard([] { PushActiveSnapshot(GetLatestSnapshot()); });
  const StreamHead head = ReadHead(stream, true);
  Guard([] { PopActiveSnapshot(); });
  return head;
}

bool SameHead(const StreamHead& a, const StreamHead& b) {
  return a.version == b.version && a.closed == b.closed && a.hash == b.hash;
}

StreamHead CurrentHead(Datum stream, const std::string& name, std::optional<long long> expected) {
  const StreamHead head = ReadHead(stream);
  if (!IsolationUsesXactSnapshot()) return head;
  const StreamHead latest = ReadLatestHead(stream);
  if (latest.closed) throw core::ClosedStreamError(name);
  if (!SameHead(head, latest)) {
    if (expected) throw core::ConcurrencyError(name, *expected, latest.version);
    throw core::ConcurrencyError(name, latest.version);
  }
  return head;
}

}  // namespace act::pg
