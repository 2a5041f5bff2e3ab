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

}  // namespace

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
