#include "stream_head.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "act/core/errors.hpp"
#include "arrays.hpp"
#include "index_scan.hpp"

namespace act::pg {
namespace {

// The last version this backend saw per stream: a lower bound for the next
// head lookup, so a backward scan of a long stream stops after a row or two
// instead of reading a whole index page. Only a hint: a stale one costs a
// second scan, never a wrong head.
std::unordered_map<std::string, int32> g_version_hints;
constexpr std::size_t kMaxHints = 4096;

std::optional<StreamHead> ScanHead(Datum stream, ScanSnapshot snapshot, std::optional<int32> min_version) {
  IndexScan scan("events", "events_stream_version_key", stream, snapshot, /*backward=*/true, min_version);
  if (!scan.Next()) return std::nullopt;
  StreamHead head;
  head.version = *scan.Int32At(scan.Column("version"));
  head.closed = scan.BytesAt(scan.Column("name")) == std::optional<std::string_view>("__tombstone__");
  if (const auto hash = scan.BytesAt(scan.Column("hash"))) {
    // A stored hash of the wrong length is tampering; verify reports it, the chain goes on from its bytes.
    memcpy(head.hash.data(), hash->data(), std::min(hash->size(), head.hash.size()));
  }
  return head;
}

StreamHead FindHead(Datum stream, ScanSnapshot snapshot) {
  const std::string name(VarlenaBytes(stream));
  const auto hint = g_version_hints.find(name);
  std::optional<StreamHead> head;
  if (hint != g_version_hints.end()) head = ScanHead(stream, snapshot, hint->second);
  if (!head) head = ScanHead(stream, snapshot, std::nullopt);
  if (!head) return StreamHead{};
  if (g_version_hints.size() >= kMaxHints) g_version_hints.clear();
  g_version_hints[name] = head->version;
  return *head;
}

// Below this many versions a stream's range is read whole (a bisection's
// probes cost about as much as reading a few rows more).
constexpr int32 kBisectFrom = 64;

// Probes of one stream's (stream, version) index through one scan: the row
// at the lowest version >= `from`, or with `last` its last row.
class VersionProbe {
 public:
  VersionProbe(Datum stream, ScanSnapshot snapshot)
      : scan_("events", "events_stream_version_key", stream, snapshot, false, PG_INT32_MIN),
        version_(scan_.Column("version")),
        id_(scan_.Column("id")) {}

  struct Row {
    int32 version;
    int64 id;
  };

  std::optional<Row> At(int32 from, bool last = false) {
    scan_.Restart(last ? PG_INT32_MIN : from, last);
    if (!scan_.Next()) return std::nullopt;
    return Row{*scan_.Int32At(version_), *scan_.Int64At(id_)};
  }

 private:
  IndexScan scan_;
  int version_;
  int id_;
};

}  // namespace

int32 FirstVersionAfter(Datum stream, int64 after, ScanSnapshot snapshot) {
  // Negative, below every id (a watermark never moved, a read from the
  // start): the range starts at the lowest version, and a probe would only
  // confirm it.
  if (after < 0) return 0;
  VersionProbe probe(stream, snapshot);
  const std::optional<VersionProbe::Row> first = probe.At(PG_INT32_MIN);
  if (!first) return 0;
  if (first->id > after) return first->version;
  const std::optional<VersionProbe::Row> last = probe.At(PG_INT32_MIN, /*last=*/true);
  if (!last || last->id <= after) return (last ? last->version : first->version) + 1;
  if (last->version - first->version < kBisectFrom) return first->version;
  // id(low) <= after < id(high), to the end. Ids tend to grow evenly with
  // versions, so a guess by interpolation usually lands next to the answer
  // (a few probes instead of log2 of the length); every other probe halves
  // the range, which bounds the worst case at twice a bisection's.
  VersionProbe::Row low = *first;
  VersionProbe::Row high = *last;
  for (bool interpolate = true; high.version - low.version > 1; interpolate = !interpolate) {
    int32 guess = low.version + (high.version - low.version) / 2;
    if (interpolate) {
      const double share = static_cast<double>(after - low.id) / static_cast<double>(high.id - low.id);
      guess = low.version + static_cast<int32>(share * (high.version - low.version));
      guess = std::clamp(guess, low.version + 1, high.version - 1);
    }
    const std::optional<VersionProbe::Row> row = probe.At(guess);
    if (!row || row->version >= high.version) break;  // rows gone meanwhile (a truncate): keep what is proven
    (row->id <= after ? low : high) = *row;
  }
  return low.version + 1;
}

StreamHead ReadHead(Datum stream) { return FindHead(stream, ScanSnapshot::kStatement); }

StreamHead ReadVisibleHead(Datum stream) { return FindHead(stream, ScanSnapshot::kActive); }

StreamHead ReadLatestHead(Datum stream) { return FindHead(stream, ScanSnapshot::kLatest); }

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
