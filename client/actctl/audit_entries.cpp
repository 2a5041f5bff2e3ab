// actctl log audit's entry checks: the log's entries against the events they
// stand for, each event's hash recomputed from its row with core's encoder
// (docs/hash-chain.md) along its stream's chain, and the tree of the entries
// against the checkpoint's root (all of them, or inclusion proofs of some).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "act/core/encoding.hpp"
#include "act/core/event_hash.hpp"
#include "act/core/merkle.hpp"
#include "audit.hpp"
#include "audit_removals.hpp"
#include "audit_rows.hpp"
#include "stored_hash.hpp"

namespace actctl {

namespace {

namespace core = act::core;
namespace merkle = act::core::merkle;
using core::Hash;

constexpr std::int32_t kPageRows = 5000;

struct Entry {
  std::int64_t position = 0;
  std::int64_t id = 0;
  Hash hash{};
};

Entry EntryOf(const act::LogEntry& row) {
  if (!row.id) throw LogBroken(fmt::format("entry {} has no event id", row.position));
  return Entry{row.position, *row.id, StoredHash<LogBroken>(row.hash, fmt::format("the hash of entry {}", row.position))};
}

// The events with ids in (after, last_id], in id order, a page at a time.
class EventPages {
 public:
  EventPages(act::LogTransaction& log, std::int64_t last_id) : log_(log), last_id_(last_id) {}

  const EventRow* Peek() {
    if (next_ == page_.size() && !done_) Fetch();
    return next_ < page_.size() ? &page_[next_] : nullptr;
  }
  void Pop() { ++next_; }

 private:
  void Fetch() {
    page_.clear();
    next_ = 0;
    std::vector<act::ChainedEvent> rows = log_.events_between(after_, last_id_, kPageRows);
    done_ = rows.size() < static_cast<std::size_t>(kPageRows);
    for (act::ChainedEvent& row : rows) page_.emplace_back(std::move(row));
    if (!page_.empty()) after_ = page_.back().id;
  }

  act::LogTransaction& log_;
  const std::int64_t last_id_;
  std::int64_t after_ = 0;  // ids start at 1
  std::vector<EventRow> page_;
  std::size_t next_ = 0;
  bool done_ = false;
};

void CheckAnchors(const ChainChecker& chains, const std::unordered_set<std::string>& deleted_hashes) {
  for (const auto& [stream, anchor] : chains.UsedAnchors()) {
    const std::string prev(anchor.prev.begin(), anchor.prev.end());
    if (!deleted_hashes.contains(prev))
      throw LogBroken(
          fmt::format("the anchor of stream \"{}\" at version {} chains to {}, which is the hash of no "
                      "deleted entry of the log",
                      stream, anchor.version, core::ToHex(anchor.prev)));
  }
}

}  // namespace

merkle::Path HashList(const std::vector<std::string>& hexes, const std::string& what) {
  merkle::Path path;
  for (const std::string& hex : hexes) {
    const auto hash = core::HashFromHex(hex);
    if (!hash) throw LogBroken(fmt::format("{}: element {} is not a 32-byte hash", what, path.size() + 1));
    path.push_back(*hash);
  }
  return path;
}

EntryReport AuditAllEntries(act::LogTransaction& log, const core::Checkpoint& checkpoint) {
  EntryReport report;
  const auto size = static_cast<std::int64_t>(checkpoint.size);
  if (size == 0) {
    if (checkpoint.root != merkle::EmptyRoot())
      throw LogBroken("the checkpoint of size 0 has a root that is not the empty tree's");
    return report;
  }
  const std::vector<act::LogEntry> last = log.entries(size - 1, size);
  if (last.empty()) throw LogBroken(fmt::format("act.log_entries has no entry at position {}", size - 1));
  const std::int64_t last_id = EntryOf(last[0]).id;

  ChainChecker chains(log);
  RemovalRecords removals(log, checkpoint.size);
  EventPages events(log, last_id);
  merkle::Frontier frontier;
  // The hashes of deleted entries, as far as anchors need them.
  const std::unordered_set<std::string> anchor_prevs = chains.AnchorPrevs();
  std::unordered_set<std::string> deleted_hashes;
  std::int64_t previous_id = 0;
  for (std::int64_t from = 0; from < size; from += kPageRows) {
    const std::int64_t to = std::min(size, from + kPageRows);
    const std::vector<act::LogEntry> rows = log.entries(from, to);
    if (static_cast<std::int64_t>(rows.size()) != to - from)
      throw LogBroken(
          fmt::format("act.log_entries gives {} entries for positions {} to {}", rows.size(), from, to - 1));
    std::int64_t position = from;
    for (const act::LogEntry& row : rows) {
      const Entry entry = EntryOf(row);
      if (entry.position != position)
        throw LogBroken(fmt::format("act.log_entries gives position {} where {} belongs", entry.position, position));
      if (entry.id <= previous_id)
        throw LogBroken(
            fmt::format("entry {} holds event id {}, not above entry {}'s {}: the entries are not in id "
                        "order",
                        position, entry.id, position - 1, previous_id));
      while (const EventRow* event = events.Peek()) {
        if (event->id >= entry.id) break;
        throw LogBroken(
            fmt::format("{} is in no entry of the log: it was inserted after it was sealed, or its entry "
                        "was removed",
                        event->Label()));
      }
      const EventRow* event = events.Peek();
      if (event && event->id == entry.id) {
        chains.Check(*event);
        if (entry.hash != event->hash)
          throw LogBroken(fmt::format("entry {} ({}): the entry holds hash {}, the event {}", position, event->Label(),
                                      core::ToHex(entry.hash), core::ToHex(event->hash)));
        events.Pop();
        ++report.events;
      } else {
        removals.AccountFor(position, entry.id);  // deleted by act.truncate: its entry is all that is left
        ++report.deleted;
        const std::string hash(entry.hash.begin(), entry.hash.end());
        if (anchor_prevs.contains(hash)) deleted_hashes.insert(hash);
      }
      frontier.Append(merkle::LeafHash(entry.hash));
      previous_id = entry.id;
      ++position;
      ++report.entries;
    }
  }
  CheckAnchors(chains, deleted_hashes);
  if (frontier.Root() != checkpoint.root)
    throw LogBroken(fmt::format("the root of the {} entries is {}, not the checkpoint's {}", size,
                                core::ToHex(frontier.Root()), core::ToHex(checkpoint.root)));
  report.chained = chains.chained();
  report.later = removals.accounted_later();
  return report;
}

EntryReport AuditSampledEntries(act::LogTransaction& log, const core::Checkpoint& checkpoint, std::uint64_t count,
                                std::mt19937_64& random) {
  EntryReport report;
  const std::uint64_t size = checkpoint.size;
  std::set<std::uint64_t> positions;
  if (count >= size) {
    for (std::uint64_t p = 0; p < size; ++p) positions.insert(p);
  } else {
    // Floyd's algorithm: `count` distinct positions, each equally likely.
    for (std::uint64_t j = size - count; j < size; ++j) {
      const std::uint64_t t = std::uniform_int_distribution<std::uint64_t>(0, j)(random);
      if (!positions.insert(t).second) positions.insert(j);
    }
  }
  ChainChecker chains(log);
  RemovalRecords removals(log, size);
  for (const std::uint64_t p : positions) {
    const auto position = static_cast<std::int64_t>(p);
    const std::vector<act::LogEntry> rows = log.entries(position, position + 1);
    if (rows.size() != 1)
      throw LogBroken(fmt::format("act.log_entries gives {} entries at position {}", rows.size(), p));
    const Entry entry = EntryOf(rows[0]);
    if (entry.position != position)
      throw LogBroken(fmt::format("act.log_entries gives position {} where {} belongs", entry.position, position));
    std::optional<act::ChainedEvent> stored = log.event(entry.id);
    if (!stored) {
      removals.AccountFor(position, entry.id);
      ++report.deleted;
    } else {
      const EventRow event(std::move(*stored));
      // The stream's chain up to this event, from where the last sample of it stopped.
      for (std::int32_t after = chains.CheckedUpTo(event.stream); after < event.version;) {
        std::vector<act::ChainedEvent> chain = log.stream_events(event.stream, after, event.version, kPageRows);
        if (chain.empty())
          throw LogBroken(fmt::format("{}: the stream's events before it cannot be read", event.Label()));
        for (act::ChainedEvent& row : chain) chains.Check(EventRow(std::move(row)));
        after = chains.CheckedUpTo(event.stream);
      }
      if (entry.hash != event.hash)
        throw LogBroken(fmt::format("entry {} ({}): the entry holds hash {}, the event {}", p, event.Label(),
                                    core::ToHex(entry.hash), core::ToHex(event.hash)));
      ++report.events;
    }
    const act::InclusionProof proof = log.inclusion_proof(entry.id, static_cast<std::int64_t>(size));
    const std::string what = fmt::format("the inclusion proof of entry {} (event id {})", p, entry.id);
    const Hash leaf = merkle::LeafHash(entry.hash);
    if (proof.leaf_index != position || proof.tree_size != static_cast<std::int64_t>(size))
      throw LogBroken(fmt::format("{} is for position {} of a tree of {}", what, proof.leaf_index, proof.tree_size));
    if (StoredHash<LogBroken>(proof.leaf_hash, what + ": its leaf hash") != leaf)
      throw LogBroken(fmt::format("{}: its leaf hash is not the leaf hash of the entry", what));
    const merkle::Path path = HashList(proof.path, what);
    const merkle::ProofCheck check = merkle::CheckInclusion(leaf, p, size, path, checkpoint.root);
    if (!check.ok())
      throw LogBroken(fmt::format("{} does not hold against the checkpoint's root: {}", what, check.problem));
    ++report.entries;
  }
  report.chained = chains.chained();
  report.later = removals.accounted_later();
  return report;
}

}  // namespace actctl
