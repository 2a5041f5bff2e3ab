#include "log_store.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "act/core/errors.hpp"
#include "arrays.hpp"
#include "merkle/log_store_sql.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg::log {

namespace {

constexpr Oid kNoArgs[] = {InvalidOid};
constexpr Oid kLevelIndex[] = {INT2OID, INT8OID};
constexpr Oid kTileRow[] = {INT2OID, INT8OID, BYTEAOID};
constexpr Oid kIndexOnly[] = {INT8OID};
constexpr Oid kBundleRow[] = {INT8OID, INT8OID, INT8ARRAYOID, BYTEAOID};
constexpr Oid kStateRow[] = {INT8OID, BYTEAOID, INT8OID};

SavedPlan g_read_state(log_store_sql::kReadState, 0, kNoArgs, PlanMode::kGeneric);
SavedPlan g_write_state(log_store_sql::kWriteState, 3, kStateRow, PlanMode::kGeneric);
SavedPlan g_read_tile(log_store_sql::kReadTile, 2, kLevelIndex, PlanMode::kGeneric);
constexpr Oid kTileKeys[] = {INT2ARRAYOID, INT8ARRAYOID};
SavedPlan g_read_tiles(log_store_sql::kReadTiles, 2, kTileKeys, PlanMode::kGeneric);
SavedPlan g_write_tile(log_store_sql::kWriteTile, 3, kTileRow, PlanMode::kGeneric);
SavedPlan g_read_bundle(log_store_sql::kReadBundle, 1, kIndexOnly, PlanMode::kGeneric);
SavedPlan g_write_bundle(log_store_sql::kWriteBundle, 4, kBundleRow, PlanMode::kGeneric);
SavedPlan g_verifier_keys(log_store_sql::kVerifierKeys, 0, kNoArgs, PlanMode::kGeneric);
// The bundle that would hold an id: the last one starting at or below it.
SavedPlan g_bundle_of_id(log_store_sql::kBundleOfId, 1, kIndexOnly, PlanMode::kGeneric);

void Run(SavedPlan& plan, Datum* values, ReadOn snapshot, bool read_only, int expected) {
  if (snapshot == ReadOn::kLatest)
    ExecuteOnLatest(plan.Get(), values, nullptr, read_only, 0, expected);
  else
    Execute(plan.Get(), values, nullptr, read_only, 0, expected);
}

Datum HashesDatum(const std::vector<Hash>& hashes) {
  return MakeBytea(hashes.empty() ? nullptr : hashes.front().data(), hashes.size() * sizeof(Hash));
}

}  // namespace

std::vector<Hash> HashesFromBytes(std::string_view bytes, const char* what) {
  if (bytes.size() % sizeof(Hash) != 0)
    throw core::SqlError(core::sqlstate::kDataCorrupted,
                         std::string(what) + " holds " + std::to_string(bytes.size()) +
                             " bytes, not a whole number of 32-byte hashes");
  std::vector<Hash> hashes(bytes.size() / sizeof(Hash));
  if (!bytes.empty()) std::memcpy(hashes.data(), bytes.data(), bytes.size());
  return hashes;
}

Hash HashFromBytes(std::string_view bytes, const char* what) {
  if (bytes.size() != sizeof(Hash))
    throw core::SqlError(core::sqlstate::kDataCorrupted,
                         std::string(what) + " is " + std::to_string(bytes.size()) + " bytes, not a 32-byte hash");
  Hash hash;
  std::memcpy(hash.data(), bytes.data(), hash.size());
  return hash;
}

std::uint64_t CheckedSize(int64 size, const char* name, const LogState& state) {
  if (size < 0) throw core::ValidationError(std::string(name) + " must be 0 or more, not " + std::to_string(size));
  if (size > state.size)
    throw core::ValidationError(std::string(name) + " " + std::to_string(size) + " is beyond the log, which has " +
                                std::to_string(state.size) + " entries (act.seal() appends the newer events)");
  return static_cast<std::uint64_t>(size);
}

SizeRange CheckedRange(int64 lower, const char* lower_name, int64 upper, const char* upper_name,
                       const LogState& state) {
  const SizeRange range{CheckedSize(lower, lower_name, state), CheckedSize(upper, upper_name, state)};
  if (range.lower > range.upper)
    throw core::ValidationError(std::string(lower_name) + " " + std::to_string(lower) + " is above " + upper_name +
                                " " + std::to_string(upper));
  return range;
}

LogState ReadLogState(ReadOn snapshot) {
  Run(g_read_state, nullptr, snapshot, true, SPI_OK_SELECT);
  LogState state;
  if (RowCount() == 0) {  // nothing sealed yet: the empty tree
    state.root = core::merkle::EmptyRoot();
    return state;
  }
  state.size = RowInt64(0, 1).value_or(0);
  state.root = HashFromBytes(RowText(0, 2).value_or(""), "act.log_state.root");
  state.sealed_upto_id = RowInt64(0, 3).value_or(0);
  state.sealed_at = RowInt64(0, 4).value_or(0);  // timestamptz is an int64 Datum
  return state;
}

void WriteLogState(const LogState& state) {
  Datum values[3] = {Int64GetDatum(state.size), MakeBytea(state.root.data(), state.root.size()),
                     Int64GetDatum(state.sealed_upto_id)};
  Run(g_write_state, values, ReadOn::kLatest, false, SPI_OK_INSERT);
}

std::vector<Hash> StoredTiles::Load(unsigned level, std::uint64_t index) {
  Datum values[2] = {Int16GetDatum(static_cast<int16>(level)), Int64GetDatum(static_cast<int64>(index))};
  Run(g_read_tile, values, snapshot_, true, SPI_OK_SELECT);
  if (RowCount() == 0) return {};
  return HashesFromBytes(RowText(0, 1).value_or(""), "a row of act.log_tiles");
}

std::vector<core::tlog::KeyedTile> StoredTiles::ReadTiles(const std::vector<core::tlog::TileKey>& tiles) {
  std::vector<Datum> levels;
  std::vector<Datum> indexes;
  for (const auto& [level, index] : tiles) {
    levels.push_back(Int16GetDatum(static_cast<int16>(level)));
    indexes.push_back(Int64GetDatum(static_cast<int64>(index)));
  }
  Datum values[2] = {MakeArray(levels, nullptr, INT2OID), MakeArray(indexes, nullptr, INT8OID)};
  Run(g_read_tiles, values, snapshot_, true, SPI_OK_SELECT);
  std::vector<core::tlog::KeyedTile> read;
  for (uint64 row = 0; row < RowCount(); ++row)
    read.emplace_back(core::tlog::TileKey{static_cast<unsigned>(RowInt32(row, 1).value_or(0)),
                                          static_cast<std::uint64_t>(RowInt64(row, 2).value_or(0))},
                      HashesFromBytes(RowText(row, 3).value_or(""), "a row of act.log_tiles"));
  return read;
}

std::vector<Hash> StoredTiles::ReadTile(unsigned level, std::uint64_t index) {
  std::vector<Hash> hashes = Load(level, index);
  if (hashes.empty())
    throw core::SqlError(core::sqlstate::kDataCorrupted, "act.log_tiles has no tile " +
                                                             core::tlog::TilePath({level, index, core::tlog::kTileWidth}) +
                                                             " that the tree needs");
  return hashes;
}

void WriteTile(unsigned level, std::uint64_t index, const std::vector<Hash>& hashes) {
  Datum values[3] = {Int16GetDatum(static_cast<int16>(level)), Int64GetDatum(static_cast<int64>(index)),
                     HashesDatum(hashes)};
  Run(g_write_tile, values, ReadOn::kLatest, false, SPI_OK_INSERT);
}

namespace {
// Row `row` of the last query as a bundle: its ids in column `ids_column`,
// its entries in the next. A damaged row raises 22P04.
EntryBundle BundleOfRow(std::uint64_t index, uint64 row, int ids_column) {
  EntryBundle bundle;
  bundle.index = index;
  bool is_null = false;
  const Datum ids = Guard([row, ids_column, &is_null] {
    return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, ids_column, &is_null);
  });
  bundle.ids = Int64ArrayElements(ids);
  SetEntries(bundle, RowText(row, ids_column + 1).value_or(""));
  if (bundle.damage) throw core::SqlError(core::sqlstate::kDataCorrupted, *bundle.damage);
  return bundle;
}
}  // namespace

void SetEntries(EntryBundle& bundle, std::string_view bytes) {
  bundle.damage.reset();
  bundle.entries.clear();
  const std::size_t ids = bundle.ids.size();
  if (bytes.size() % sizeof(Hash) != 0)
    bundle.damage = "act.log_entries row " + std::to_string(bundle.index) + " holds " + std::to_string(bytes.size()) +
                    " bytes, not a whole number of 32-byte hashes";
  else if (bytes.size() / sizeof(Hash) != ids)
    bundle.damage = "act.log_entries row " + std::to_string(bundle.index) + " has " + std::to_string(ids) +
                    " ids but " + std::to_string(bytes.size() / sizeof(Hash)) + " entries";
  else if (!bytes.empty()) {
    bundle.entries.resize(ids);
    std::memcpy(bundle.entries.data(), bytes.data(), bytes.size());
  }
}

std::optional<EntryBundle> ReadBundle(std::uint64_t index, ReadOn snapshot) {
  Datum values[1] = {Int64GetDatum(static_cast<int64>(index))};
  Run(g_read_bundle, values, snapshot, true, SPI_OK_SELECT);
  if (RowCount() == 0) return std::nullopt;
  return BundleOfRow(index, 0, 1);
}

void WriteBundle(const EntryBundle& bundle) {
  std::vector<Datum> ids;
  ids.reserve(bundle.ids.size());
  for (int64 id : bundle.ids) ids.push_back(Int64GetDatum(id));
  Datum values[4] = {Int64GetDatum(static_cast<int64>(bundle.index)), Int64GetDatum(bundle.ids.front()),
                     MakeArray(ids, nullptr, INT8OID), HashesDatum(bundle.entries)};
  Run(g_write_bundle, values, ReadOn::kLatest, false, SPI_OK_INSERT);
}

std::optional<std::uint64_t> PositionOf(int64 id) {
  Datum values[1] = {Int64GetDatum(id)};
  Run(g_bundle_of_id, values, ReadOn::kStatement, true, SPI_OK_SELECT);
  if (RowCount() == 0) return std::nullopt;
  const auto index = static_cast<std::uint64_t>(RowInt64(0, 1).value_or(0));
  bool is_null = false;
  const Datum array = Guard([&is_null] { return SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &is_null); });
  const std::vector<int64> ids = Int64ArrayElements(array);
  const auto found = std::lower_bound(ids.begin(), ids.end(), id);
  if (found == ids.end() || *found != id) return std::nullopt;
  return index * core::tlog::kTileWidth + static_cast<std::uint64_t>(found - ids.begin());
}

std::vector<std::string> RegisteredVerifierKeys(ReadOn snapshot) {
  Run(g_verifier_keys, nullptr, snapshot, true, SPI_OK_SELECT);
  std::vector<std::string> vkeys;
  for (uint64 row = 0; row < RowCount(); ++row) vkeys.emplace_back(RowText(row, 1).value_or(""));
  return vkeys;
}

std::optional<std::uint64_t> BundleIndexOf(int64 id, ReadOn snapshot) {
  Datum values[1] = {Int64GetDatum(id)};
  Run(g_bundle_of_id, values, snapshot, true, SPI_OK_SELECT);
  if (RowCount() == 0) return std::nullopt;
  return static_cast<std::uint64_t>(RowInt64(0, 1).value_or(0));
}

}  // namespace act::pg::log
