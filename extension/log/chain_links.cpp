#include "chain_links.hpp"

#include <cstring>

#include "arrays.hpp"
#include "index_scan.hpp"

extern "C" {
#include "utils/fmgroids.h"
}

namespace act::pg {
namespace {

std::optional<core::Hash> HashFrom(const std::optional<std::string_view>& bytes) {
  core::Hash hash;
  if (!bytes || bytes->size() != hash.size()) return std::nullopt;
  std::memcpy(hash.data(), bytes->data(), hash.size());
  return hash;
}

}  // namespace

std::optional<core::Hash> StoredHashAt(std::string_view stream, std::int32_t version) {
  const IndexKey keys[2] = {{1, BTEqualStrategyNumber, F_TEXTEQ, MakeText(stream)},
                            {2, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(version)}};
  IndexScan scan("events", "events_stream_version_key", keys, 2, ScanSnapshot::kActive);
  if (!scan.Next()) return std::nullopt;
  return HashFrom(scan.BytesAt(scan.Column("hash")));
}

std::optional<core::Hash> AnchorBefore(std::string_view stream, std::int32_t version) {
  IndexScan scan("stream_anchors", "stream_anchors_pkey", MakeText(stream), ScanSnapshot::kActive);
  if (!scan.Next() || scan.Int32At(scan.Column("version")) != version) return std::nullopt;
  return HashFrom(scan.BytesAt(scan.Column("prev")));
}

std::optional<core::Hash> ChainPredecessor(std::string_view stream, std::int32_t version) {
  if (version == 0) return core::kZeroHash;
  if (std::optional<core::Hash> before = StoredHashAt(stream, version - 1)) return before;
  return AnchorBefore(stream, version);
}

}  // namespace act::pg
