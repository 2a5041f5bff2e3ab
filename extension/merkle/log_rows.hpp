#pragma once
// act.log_entries and act.log_tiles read row after row through their
// primary keys, without SPI or the executor, for act.verify_log's walk of a
// whole level: a query per window of rows cost as much as hashing them.
// Rows are those the calling statement's snapshot sees, as EventRows' are.
// Each reader is one forward scan, opened at the first index asked: the
// indexes asked must not decrease. What At() returns stays valid until the
// next call asks for another index.
#include <cstdint>
#include <optional>
#include <vector>

#include "detoast_arena.hpp"
#include "index_scan.hpp"
#include "log_store.hpp"

namespace act::pg::log {

class BundleRows {
 public:
  // The bundle at `index`; null when act.log_entries has no such row. A
  // damaged row comes back with its damage said (EntryBundle::damage).
  const EntryBundle* At(std::uint64_t index);

 private:
  bool Advance();

  std::optional<IndexScan> scan_;
  DetoastArena detoasted_;
  int index_column_ = 0;
  int ids_column_ = 0;
  int entries_column_ = 0;
  int last_column_ = 0;
  EntryBundle row_;
  bool have_row_ = false;
  bool ended_ = false;
};

class TileRows {
 public:
  explicit TileRows(unsigned level) : level_(level) {}
  // The stored hashes of tile `index` of this level; null when act.log_tiles
  // has no such row. A row not of whole hashes is an error (XX001).
  const std::vector<Hash>* At(std::uint64_t index);

 private:
  bool Advance();

  unsigned level_;
  std::optional<IndexScan> scan_;
  DetoastArena detoasted_;
  int index_column_ = 0;
  int hashes_column_ = 0;
  int last_column_ = 0;
  std::uint64_t index_ = 0;
  std::vector<Hash> hashes_;
  bool have_row_ = false;
  bool ended_ = false;
};

}  // namespace act::pg::log
