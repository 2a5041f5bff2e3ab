// SQL entry points of the verifiable log (docs/reference.md, "Verifiable
// log"): act.seal, act.log_size, act.merkle_root, act.log_position,
// act.prove_inclusion, act.prove_consistency, act.log_entries and
// act._seal_through (for act.truncate).
#include <string>

#include "primary_only.hpp"
#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"
#include "arrays.hpp"
#include "log_store.hpp"
#include "sealer.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

using namespace act;
namespace merkle = core::merkle;

namespace {

int64 RequiredInt64(FunctionCallInfo fcinfo, int arg, const char* name) {
  if (PG_ARGISNULL(arg))
    throw core::ValidationError(std::string(name) + " must not be null", core::sqlstate::kNullValueNotAllowed);
  return PG_GETARG_INT64(arg);
}

std::uint64_t SealedPosition(int64 id) {
  const std::optional<std::uint64_t> position = pg::log::PositionOf(id);
  if (!position)
    throw core::ValidationError("event " + std::to_string(id) + " is not in the log: not sealed yet, or no such event");
  return *position;
}

Datum HashDatum(const core::Hash& hash) { return pg::MakeBytea(hash.data(), hash.size()); }

Datum PathDatum(const merkle::Path& path) {
  std::vector<Datum> hashes;
  hashes.reserve(path.size());
  for (const core::Hash& hash : path) hashes.push_back(HashDatum(hash));
  return pg::MakeArray(hashes, nullptr, BYTEAOID);
}

void PutRow(ReturnSetInfo* result, Datum* values, bool* nulls) {
  pg::Guard([result, values, nulls] { tuplestore_putvalues(result->setResult, result->setDesc, values, nulls); });
}

// (size, root, sealed_upto_id), the row act.seal and act.log_size return.
Datum ReturnState(FunctionCallInfo fcinfo, const pg::log::LogState& state) {
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  Datum values[3] = {Int64GetDatum(state.size), HashDatum(state.root), Int64GetDatum(state.sealed_upto_id)};
  bool nulls[3] = {false, false, false};
  PutRow(result, values, nulls);
  return Datum(0);
}

}  // namespace

ACT_SQL_FUNCTION(act_seal) {
  pg::RequirePrimary("act.seal");
  pg::SpiSession spi;
  const pg::log::LogState state = pg::log::Seal();
  spi.Finish();
  return ReturnState(fcinfo, state);
}

ACT_SQL_FUNCTION(act_seal_stop) {
  pg::SpiSession spi;
  const std::optional<std::string> stop = pg::log::SealStop(pg::log::ReadLogState(pg::log::ReadOn::kLatest));
  spi.Finish();
  if (!stop) PG_RETURN_NULL();
  return pg::MakeText(*stop);
}

ACT_SQL_FUNCTION(act_seal_through) {
  pg::RequirePrimary("act.seal_through");
  const int64 id = RequiredInt64(fcinfo, 0, "id");
  const int32 timeout_ms = PG_ARGISNULL(1) ? 10000 : PG_GETARG_INT32(1);
  pg::SpiSession spi;
  (void)pg::log::SealThrough(id, timeout_ms);
  spi.Finish();
  PG_RETURN_VOID();
}

ACT_SQL_FUNCTION(act_log_size) {
  pg::SpiSession spi;
  const pg::log::LogState state = pg::log::ReadLogState();
  spi.Finish();
  return ReturnState(fcinfo, state);
}

ACT_SQL_FUNCTION(act_merkle_root) {
  const int64 size = RequiredInt64(fcinfo, 0, "tree_size");
  pg::SpiSession spi;
  const pg::log::LogState state = pg::log::ReadLogState();
  const std::uint64_t checked = pg::log::CheckedSize(size, "tree_size", state);
  core::Hash root = state.root;
  if (checked != static_cast<std::uint64_t>(state.size)) {
    pg::log::StoredTiles tiles;
    tiles.Prefetch([checked](merkle::NodeSource& source) { merkle::RootAt(source, checked); });
    root = merkle::RootAt(tiles, checked);
  }
  spi.Finish();
  return HashDatum(root);
}

ACT_SQL_FUNCTION(act_log_position) {
  const int64 id = RequiredInt64(fcinfo, 0, "id");
  pg::SpiSession spi;
  const std::optional<std::uint64_t> position = pg::log::PositionOf(id);
  spi.Finish();
  if (!position) PG_RETURN_NULL();
  PG_RETURN_INT64(static_cast<int64>(*position));
}

ACT_SQL_FUNCTION(act_prove_inclusion) {
  const int64 id = RequiredInt64(fcinfo, 0, "id");
  pg::SpiSession spi;
  const pg::log::LogState state = pg::log::ReadLogState();
  const std::uint64_t size =
      PG_ARGISNULL(1) ? static_cast<std::uint64_t>(state.size) : pg::log::CheckedSize(PG_GETARG_INT64(1), "tree_size", state);
  const std::uint64_t position = SealedPosition(id);
  if (position >= size)
    throw core::ValidationError("event " + std::to_string(id) + " is entry " + std::to_string(position) +
                                ", not in the tree of " + std::to_string(size) + " entries");
  const bool at_sealed_size = size == static_cast<std::uint64_t>(state.size);
  // The leaf hash is the level-0 node the tiles hold (act.verify_log checks
  // it against the entry); the path's tiles and the root's come in one read.
  pg::log::StoredTiles tiles;
  tiles.Prefetch([position, size, at_sealed_size](merkle::NodeSource& source) {
    source.Node({0, position});
    merkle::InclusionProof(source, position, size);
    if (!at_sealed_size) merkle::RootAt(source, size);
  });
  const core::Hash leaf = tiles.Node({0, position});
  const merkle::Path path = merkle::InclusionProof(tiles, position, size);
  const core::Hash root = at_sealed_size ? state.root : merkle::RootAt(tiles, size);
  spi.Finish();
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  Datum values[5] = {Int64GetDatum(static_cast<int64>(position)), Int64GetDatum(static_cast<int64>(size)),
                     HashDatum(leaf), PathDatum(path), HashDatum(root)};
  bool nulls[5] = {false, false, false, false, false};
  PutRow(result, values, nulls);
  return Datum(0);
}

ACT_SQL_FUNCTION(act_prove_consistency) {
  const int64 old_size = RequiredInt64(fcinfo, 0, "old_size");
  const int64 new_size = RequiredInt64(fcinfo, 1, "new_size");
  pg::SpiSession spi;
  const pg::log::LogState state = pg::log::ReadLogState();
  const pg::log::SizeRange sizes = pg::log::CheckedRange(old_size, "old_size", new_size, "new_size", state);
  pg::log::StoredTiles tiles;
  tiles.Prefetch([&sizes](merkle::NodeSource& source) { merkle::ConsistencyProof(source, sizes.lower, sizes.upper); });
  const merkle::Path path = merkle::ConsistencyProof(tiles, sizes.lower, sizes.upper);
  spi.Finish();
  return PathDatum(path);
}

// The entries at positions [from_position, to_position): id and entry data.
ACT_SQL_FUNCTION(act_log_entries) {
  const int64 from = RequiredInt64(fcinfo, 0, "from_position");
  const int64 to = RequiredInt64(fcinfo, 1, "to_position");
  pg::SpiSession spi;
  const pg::log::LogState state = pg::log::ReadLogState();
  const auto [begin, end] = pg::log::CheckedRange(from, "from_position", to, "to_position", state);
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  for (std::uint64_t index = begin / core::tlog::kTileWidth; index * core::tlog::kTileWidth < end; ++index) {
    const std::optional<pg::log::EntryBundle> bundle = pg::log::ReadBundle(index);
    if (!bundle)
      throw core::SqlError(core::sqlstate::kDataCorrupted,
                           "act.log_entries has no row " + std::to_string(index) + " that the tree needs");
    for (std::size_t i = 0; i < bundle->ids.size(); ++i) {
      const std::uint64_t position = index * core::tlog::kTileWidth + i;
      if (position < begin || position >= end) continue;
      Datum values[3] = {Int64GetDatum(static_cast<int64>(position)), Int64GetDatum(bundle->ids[i]),
                         HashDatum(bundle->entries[i])};
      bool nulls[3] = {false, false, false};
      PutRow(result, values, nulls);
    }
  }
  spi.Finish();
  return Datum(0);
}
