// act.verify_log(from_size, to_size): checks the entries [from_size, to_size)
// against the events they were sealed from (each present event's hash
// recomputed from its row, as act.verify does, rows read from the id index) and the stored tree
// against the entries (every tile hash over the range recomputed from the
// level below), then the roots the log has stated: act.log_state's and each
// checkpoint's, its note and its signatures by registered keys. An entry
// whose event is gone passes only when a removal record accounts for it
// (removal_records.hpp); an event no entry holds at or below what was
// sealed, and a corrupted event not sealed yet, are reported too. One row
// per problem; none when all agree.
#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"
#include "arrays.hpp"
#include "chain_links.hpp"
#include "event_rehash.hpp"
#include "event_rows.hpp"
#include "log_rows.hpp"
#include "log_store.hpp"
#include "removal_records.hpp"
#include "checkpoint_notes.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

using namespace act;
namespace merkle = core::merkle;
namespace tlog = core::tlog;

namespace {

const std::vector<core::Hash> kNoHashes;

struct Problem {
  std::optional<int64> position;
  std::optional<int64> id;
  std::string problem;
};

// The events with ids in a range, in id order, from one scan of the id index
// that the walk takes bundle by bundle (one scan, not one a bundle: opening
// a btree scan allocates tens of kilobytes).
class EventCursor {
 public:
  // The next event with after < id <= last into `row`; events at or below
  // `after` are passed over, one above `last` is kept for the next call.
  bool Next(int64 after, int64 last, pg::EventRow& row) {
    if (!rows_) rows_.emplace(pg::EventRows::IdRange{after + 1, std::numeric_limits<int64>::max()});
    for (;;) {
      if (!pending_) {
        if (ended_ || !rows_->Next(row_)) {
          ended_ = true;
          return false;
        }
        pending_ = true;
      }
      if (row_.id > last) return false;
      pending_ = false;
      if (row_.id <= after) continue;
      row = row_;
      return true;
    }
  }

 private:
  std::optional<pg::EventRows> rows_;
  pg::EventRow row_;
  bool pending_ = false;  // row_ is read and not yet handed out
  bool ended_ = false;
};

// A stream's last event seen in the walk.
struct LastSeen {
  std::int32_t version = 0;
  std::optional<core::Hash> hash;  // none: not 32 bytes, nothing chains to it
};

class Verifier {
 public:
  Verifier(const pg::log::LogState& state, std::uint64_t begin, std::uint64_t end)
      : state_(state), size_(static_cast<std::uint64_t>(state.size)), begin_(begin), end_(end) {}

  // One pass over each level's rows: level 0 with the entry bundles beside
  // it (entries against events, leaf hashes against the tile), and every
  // full tile against the hash its parent tile holds for it.
  std::vector<Problem> Run() {
    ledger_.Load(size_, [this](std::optional<int64> position, std::optional<int64> id, std::string problem) {
      Report(position, id, std::move(problem));
    });
    if (begin_ < end_)
      for (unsigned level = 0; tlog::HashesAtTileLevel(size_, level) > 0; ++level) CheckLevel(level);
    if (end_ == size_) {
      CheckEventsPastTheEntries();
      CheckUnsealedEvents();
    }
    CheckRoots();
    return std::move(problems_);
  }

 private:
  void Report(std::optional<int64> position, std::optional<int64> id, std::string problem) {
    problems_.push_back({position, id, std::move(problem)});
  }

  void CheckLevel(unsigned level) {
    const unsigned shift = tlog::kTileHeight * level;  // log2 of the leaves under one hash of this level
    const std::uint64_t first_hash = begin_ >> shift;
    const std::uint64_t end_hash = std::min<std::uint64_t>(((end_ - 1) >> shift) + 1, tlog::HashesAtTileLevel(size_, level));
    if (first_hash >= end_hash) return;  // the range lies in a subtree not complete yet
    pg::log::BundleRows bundles;
    pg::log::TileRows tiles(level);
    pg::log::TileRows parents(level + 1);
    for (std::uint64_t tile = first_hash / tlog::kTileWidth; tile * tlog::kTileWidth < end_hash; ++tile) {
      const pg::log::EntryBundle* bundle = level == 0 ? bundles.At(tile) : nullptr;
      if (level == 0) CheckEntries(tile, bundle);
      const std::vector<core::Hash>* const found = tiles.At(tile);
      const std::vector<core::Hash>& stored = found ? *found : kNoHashes;
      const unsigned width = tlog::TileWidthAt(size_, level, tile);
      if (stored.size() != width) {
        Report(static_cast<int64>((tile * tlog::kTileWidth) << shift), std::nullopt,
               "tile " + tlog::TilePath({level, tile, width}) + " holds " + std::to_string(stored.size()) +
                   " hashes, not " + std::to_string(width));
        continue;
      }
      if (level == 0 && bundle) CheckLeafHashes(tile, stored, *bundle, first_hash, end_hash);
      if (width == tlog::kTileWidth) CheckParentHash(level + 1, tile, stored, parents);
    }
  }

  // A level-0 tile's hashes in [first_hash, end_hash) against its entries.
  void CheckLeafHashes(std::uint64_t tile, const std::vector<core::Hash>& stored, const pg::log::EntryBundle& bundle,
                       std::uint64_t first_hash, std::uint64_t end_hash) {
    for (unsigned i = 0; i < stored.size() && i < bundle.entries.size(); ++i) {  // missing entries: reported with them
      const std::uint64_t hash_index = tile * tlog::kTileWidth + i;
      if (hash_index < first_hash || hash_index >= end_hash) continue;
      if (stored[i] != merkle::LeafHash(bundle.entries[i])) ReportTileHash(0, tile, static_cast<unsigned>(stored.size()), i);
    }
  }

  // The hash that tile (level - 1, child) is summed up by, at `level`,
  // against the full child tile's own hashes. The child's range and the
  // hash's coincide, so each hash of the range is checked once.
  void CheckParentHash(unsigned level, std::uint64_t child, const std::vector<core::Hash>& child_hashes,
                       pg::log::TileRows& parents) {
    const std::uint64_t tile = child / tlog::kTileWidth;
    const auto i = static_cast<unsigned>(child % tlog::kTileWidth);
    const std::vector<core::Hash>* const stored = parents.At(tile);
    const unsigned width = tlog::TileWidthAt(size_, level, tile);
    if (!stored || stored->size() != width || i >= width) return;  // reported at its own level
    if ((*stored)[i] != tlog::HashTileSlice(child_hashes)) ReportTileHash(level, tile, width, i);
  }

  void ReportTileHash(unsigned level, std::uint64_t tile, unsigned width, unsigned i) {
    const std::uint64_t hash_index = tile * tlog::kTileWidth + i;
    Report(static_cast<int64>(hash_index << (tlog::kTileHeight * level)), std::nullopt,
           "tile " + tlog::TilePath({level, tile, width}) + " hash " + std::to_string(i) +
               " is not the hash of what it covers");
  }

  // The entries of bundle `index` that lie in the range, against the events
  // with ids from the last entry checked to the bundle's last.
  void CheckEntries(std::uint64_t index, const pg::log::EntryBundle* bundle) {
    if (!bundle) {
      Report(static_cast<int64>(index * tlog::kTileWidth), std::nullopt,
             "act.log_entries has no row " + std::to_string(index));
      have_after_ = false;  // the events of the missing row are not checked
      return;
    }
    const std::uint64_t first = index * tlog::kTileWidth;
    if (bundle->damage) {
      Report(static_cast<int64>(first), std::nullopt, *bundle->damage);
      have_after_ = false;  // its events are not checked: which entry is whose is unknown
      return;
    }
    const unsigned width = tlog::TileWidthAt(size_, 0, index);
    if (bundle->ids.size() != width)  // a cut or padded row: its missing entries match no tile hash
      Report(static_cast<int64>(first), std::nullopt,
             "act.log_entries row " + std::to_string(index) + " holds " + std::to_string(bundle->ids.size()) +
                 " entries, not " + std::to_string(width));
    const std::size_t lo = begin_ > first ? begin_ - first : 0;
    const std::size_t hi = std::min<std::uint64_t>(bundle->ids.size(), end_ - first);
    if (lo >= hi) return;
    // From the first entry on, an event below it is one the tree lacks.
    if (!have_after_) after_ = first + lo == 0 ? std::numeric_limits<int64>::min() : bundle->ids[lo] - 1;
    const int64 last_id = bundle->ids[hi - 1];
    CheckEventsAgainst(*bundle, lo, hi, last_id);
    after_ = last_id;
    have_after_ = true;
  }

  // Past the last entry: an event at or below what was sealed that no entry
  // holds (in an empty tree, any such event).
  void CheckEventsPastTheEntries() {
    if (!have_after_) {
      if (size_ != 0) return;  // the last bundle is missing or damaged: reported
      after_ = std::numeric_limits<int64>::min();
      have_after_ = true;
    }
    if (after_ < state_.sealed_upto_id) {
      const pg::log::EntryBundle none;
      CheckEventsAgainst(none, 0, 0, state_.sealed_upto_id);
      after_ = state_.sealed_upto_id;
    }
  }

  // The events not sealed yet: a hash the sealer cannot take stops sealing
  // for good, and a content that does not match its hash will fail the
  // seal's later check; both are reported now, as rows.
  void CheckUnsealedEvents() {
    if (!have_after_) return;
    pg::EventRow row;
    while (events_.Next(std::max(after_, state_.sealed_upto_id), std::numeric_limits<int64>::max(), row)) {
      const std::optional<core::Hash> prev = ChainToNext(row);
      const std::string id = std::to_string(row.id);
      if (row.hash.size() != core::kZeroHash.size())
        Report(std::nullopt, row.id,
               "event " + id + " (not sealed yet) has a hash of " + std::to_string(row.hash.size()) +
                   " bytes, not 32: sealing stops before it");
      else if (!prev)
        Report(std::nullopt, row.id,
               "event " + id + " (not sealed yet): its previous version is missing, so its hash cannot be recomputed");
      else if (const core::Hash computed = rehasher_.Compute(*prev, row);
               std::memcmp(computed.data(), row.hash.data(), computed.size()) != 0)
        Report(std::nullopt, row.id, "event " + id + " (not sealed yet): its content does not match its hash");
    }
  }

  // An entry whose event is not in act.events: accounted for by a removal
  // record, or a problem.
  void CheckMissing(const pg::log::EntryBundle& bundle, std::size_t entry) {
    const std::uint64_t position = bundle.index * tlog::kTileWidth + entry;
    if (ledger_.RecordListing(position)) {
      ledger_.CountAccounted();
      return;
    }
    const int64 id = bundle.ids[entry];
    Report(static_cast<int64>(position), id,
           "event " + std::to_string(id) + " of entry " + std::to_string(position) +
               " is missing from act.events and no removal record accounts for it");
  }

  // The events with ids in (after_, last_id] against entries [lo, hi) of the
  // bundle, each rehashed from its row.
  void CheckEventsAgainst(const pg::log::EntryBundle& bundle, std::size_t lo, std::size_t hi, int64 last_id) {
    if (last_id <= after_) return;
    pg::EventRow row;
    std::size_t entry = lo;
    while (events_.Next(after_, last_id, row)) {
      const int64 id = row.id;
      for (; entry < hi && bundle.ids[entry] < id; ++entry) CheckMissing(bundle, entry);
      const std::optional<core::Hash> prev = ChainToNext(row);
      if (entry >= hi || bundle.ids[entry] != id) {
        Report(std::nullopt, id, "event " + std::to_string(id) + " is in act.events but not in the log");
        continue;
      }
      const int64 position = static_cast<int64>(bundle.index * tlog::kTileWidth + entry);
      const core::Hash& sealed = bundle.entries[entry];
      if (const std::optional<int64> record = ledger_.RecordListing(static_cast<std::uint64_t>(position)))
        Report(position, id, "removal record " + std::to_string(*record) + " lists the entry of event " +
                                 std::to_string(id) + " as removed, but the event is present");
      if (row.hash.size() != sealed.size() || std::memcmp(row.hash.data(), sealed.data(), sealed.size()) != 0)
        Report(position, id, "the event's stored hash is not the entry sealed for it");
      else if (!prev)
        Report(position, id, "the event's previous version is missing, so its hash cannot be recomputed");
      else if (rehasher_.Compute(*prev, row) != sealed)
        Report(position, id, "the event's content does not match its hash");
      ++entry;
    }
    for (; entry < hi; ++entry) CheckMissing(bundle, entry);
  }

  // What `row` must chain to, and `row` remembered as what its successor
  // chains to. The stored hash of the event before it in its stream, seen a
  // moment ago in id order (a stream's versions come in id order) or else
  // looked up by index; zeros at version 0; the anchor act.truncate left.
  // None when there is nothing to chain to.
  std::optional<core::Hash> ChainToNext(const pg::EventRow& row) {
    // A commit's events come one after another in id order: the stream of
    // the row before is checked first, without a lookup.
    if (last_ && last_->second.version == row.version - 1 && last_->first == row.stream) {
      std::optional<core::Hash> prev = std::move(last_->second.hash);
      Remember(last_->second, row);
      return prev;
    }
    auto seen = last_seen_.find(row.stream);
    std::optional<core::Hash> prev;
    if (row.version == 0)
      prev = core::kZeroHash;
    else if (seen != last_seen_.end() && seen->second.version == row.version - 1)
      prev = seen->second.hash;
    else
      prev = pg::ChainPredecessor(row.stream, row.version);
    if (seen == last_seen_.end()) {
      // Bounded: a log of many short streams falls back to the index lookups.
      if (last_seen_.size() >= kStreamsRemembered) {
        last_seen_.clear();
        last_ = nullptr;
      }
      seen = last_seen_.emplace(std::string(row.stream), LastSeen{}).first;
    }
    Remember(seen->second, row);
    last_ = &*seen;  // a map's elements stay where they are until erased
    return prev;
  }

  static void Remember(LastSeen& seen, const pg::EventRow& row) {
    seen.version = row.version;
    seen.hash.reset();
    if (row.hash.size() == core::kZeroHash.size()) {
      seen.hash.emplace();
      std::memcpy(seen.hash->data(), row.hash.data(), seen.hash->size());
    }
  }

  // The roots the log has stated, against the stored tree.
  void CheckRoots() {
    pg::log::StoredTiles tiles;
    const auto root_at = [&tiles](std::uint64_t size) -> std::optional<core::Hash> {
      try {
        return merkle::RootAt(tiles, size);
      } catch (const core::SqlError&) {
        return std::nullopt;  // a missing tile, reported above
      }
    };
    if (end_ == size_) {
      const std::optional<core::Hash> root = root_at(end_);
      if (root && *root != state_.root)
        Report(state_.size, std::nullopt, "act.log_state's root is not the root of the stored tree");
    }
    pg::log::VerifyCheckpoints(begin_, end_, size_, root_at, [this](std::optional<int64> size, std::string problem) {
      Report(size, std::nullopt, std::move(problem));
    });
  }

  struct StreamHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view stream) const { return std::hash<std::string_view>{}(stream); }
  };
  static constexpr std::size_t kStreamsRemembered = 65536;

  const pg::log::LogState& state_;
  std::uint64_t size_;
  std::uint64_t begin_;
  std::uint64_t end_;
  std::vector<Problem> problems_;
  EventCursor events_;
  // The id range checked so far ends at after_ (not yet, or a missing bundle
  // broke the range, when !have_after_). A plain pair: GCC 12 takes an
  // optional here for maybe-uninitialized.
  bool have_after_ = false;
  int64 after_ = 0;
  pg::EventRehasher rehasher_;
  pg::log::RemovalLedger ledger_;
  std::unordered_map<std::string, LastSeen, StreamHash, std::equal_to<>> last_seen_;
  std::pair<const std::string, LastSeen>* last_ = nullptr;  // the stream of the last row, in last_seen_
};

}  // namespace

ACT_SQL_FUNCTION(act_verify_log) {
  if (PG_ARGISNULL(0))
    throw core::ValidationError("from_size must not be null", core::sqlstate::kNullValueNotAllowed);
  const int64 from = PG_GETARG_INT64(0);
  pg::SpiSession spi;
  const pg::log::LogState state = pg::log::ReadLogState();
  const int64 to = PG_ARGISNULL(1) ? state.size : PG_GETARG_INT64(1);
  const pg::log::SizeRange sizes = pg::log::CheckedRange(from, "from_size", to, "to_size", state);
  const std::vector<Problem> problems =
      Verifier(state, sizes.lower, sizes.upper).Run();
  spi.Finish();
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  for (const Problem& problem : problems) {
    Datum values[3] = {Int64GetDatum(problem.position.value_or(0)), Int64GetDatum(problem.id.value_or(0)),
                       pg::MakeText(problem.problem)};
    bool nulls[3] = {!problem.position, !problem.id, false};
    Datum* value_ptr = values;
    bool* null_ptr = nulls;
    pg::Guard([result, value_ptr, null_ptr] {
      tuplestore_putvalues(result->setResult, result->setDesc, value_ptr, null_ptr);
    });
  }
  return Datum(0);
}
