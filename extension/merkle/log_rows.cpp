#include "log_rows.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "arrays.hpp"

namespace act::pg::log {
namespace {

// The columns of the current row, NOT NULL all of them: a NULL means the
// table is not what this code expects.
Datum Required(const IndexScan& scan, int column, const char* table) {
  bool is_null = false;
  const Datum value = scan.DeformedAt(column, &is_null);
  if (is_null) throw std::runtime_error(std::string("pg_act: ") + table + " has a NULL where a value is required");
  return value;
}

}  // namespace

bool BundleRows::Advance() {
  if (!scan_->NextDeformed(last_column_)) return false;
  detoasted_.Reset();
  row_.index = static_cast<std::uint64_t>(DatumGetInt64(Required(*scan_, index_column_, "act.log_entries")));
  const Datum ids = Required(*scan_, ids_column_, "act.log_entries");
  const Datum entries = Required(*scan_, entries_column_, "act.log_entries");
  Int64ArrayElementsOf(reinterpret_cast<const ArrayType*>(detoasted_.Plain(ids)), row_.ids);
  SetEntries(row_, detoasted_.Bytes(entries));
  return true;
}

const EntryBundle* BundleRows::At(std::uint64_t index) {
  if (!scan_) {
    const IndexKey from{1, BTGreaterEqualStrategyNumber, F_INT8GE, Int64GetDatum(static_cast<int64>(index))};
    scan_.emplace("log_entries", "log_entries_pkey", &from, 1, ScanSnapshot::kActive);
    index_column_ = scan_->Column("idx");
    ids_column_ = scan_->Column("ids");
    entries_column_ = scan_->Column("entries");
    last_column_ = std::max({index_column_, ids_column_, entries_column_});
  }
  while (!ended_ && (!have_row_ || row_.index < index)) {
    have_row_ = Advance();
    ended_ = !have_row_;
  }
  return have_row_ && row_.index == index ? &row_ : nullptr;
}

bool TileRows::Advance() {
  if (!scan_->NextDeformed(last_column_)) return false;
  detoasted_.Reset();
  index_ = static_cast<std::uint64_t>(DatumGetInt64(Required(*scan_, index_column_, "act.log_tiles")));
  const std::string_view bytes = detoasted_.Bytes(Required(*scan_, hashes_column_, "act.log_tiles"));
  if (bytes.size() % sizeof(Hash) != 0) hashes_ = HashesFromBytes(bytes, "a row of act.log_tiles");  // raises
  hashes_.resize(bytes.size() / sizeof(Hash));
  if (!bytes.empty()) std::memcpy(hashes_.data(), bytes.data(), bytes.size());
  return true;
}

const std::vector<Hash>* TileRows::At(std::uint64_t index) {
  if (!scan_) {
    const IndexKey keys[2] = {{1, BTEqualStrategyNumber, F_INT2EQ, Int16GetDatum(static_cast<int16>(level_))},
                              {2, BTGreaterEqualStrategyNumber, F_INT8GE, Int64GetDatum(static_cast<int64>(index))}};
    scan_.emplace("log_tiles", "log_tiles_pkey", keys, 2, ScanSnapshot::kActive);
    index_column_ = scan_->Column("idx");
    hashes_column_ = scan_->Column("hashes");
    last_column_ = std::max(index_column_, hashes_column_);
  }
  while (!ended_ && (!have_row_ || index_ < index)) {
    have_row_ = Advance();
    ended_ = !have_row_;
  }
  return have_row_ && index_ == index ? &hashes_ : nullptr;
}

}  // namespace act::pg::log
