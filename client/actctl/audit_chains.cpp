// Event rows and each stream's hash chain, recomputed from the rows with
// core's encoder (docs/hash-chain.md), for actctl log audit (audit_rows.hpp).
#include <fmt/format.h>

#include <string_view>
#include <utility>
#include <vector>

#include "act/core/encoding.hpp"
#include "audit.hpp"
#include "audit_rows.hpp"
#include "stored_hash.hpp"

namespace actctl {

namespace core = act::core;
using core::Hash;

EventRow::EventRow(act::ChainedEvent chained)
    : id(chained.event.id),
      stream(std::move(chained.event.stream)),
      version(chained.event.version),
      name(std::move(chained.event.name)),
      data(std::move(chained.event.data)),
      meta(std::move(chained.event.meta)),
      created_micros(chained.event.created.time_since_epoch().count()),
      hash(StoredHash<LogBroken>(chained.hash, fmt::format("the stored hash of event id {}", id))),
      tags(std::move(chained.tags)) {}

std::string EventRow::Label() const {
  return fmt::format("event id {} (stream \"{}\" version {})", id, stream, version);
}

ChainChecker::ChainChecker(act::LogTransaction& log) {
  for (const act::StreamAnchor& anchor : log.stream_anchors()) {
    const Hash prev = StoredHash<LogBroken>(anchor.prev, fmt::format("the anchor of stream \"{}\"", anchor.stream));
    anchors_.emplace(anchor.stream, Anchor{anchor.version, prev});
  }
}

std::int32_t ChainChecker::CheckedUpTo(const std::string& stream) const {
  const auto head = heads_.find(stream);
  return head == heads_.end() ? -1 : head->second.version;
}

void ChainChecker::Check(const EventRow& event) {
  Hash prev{};
  const auto head = heads_.find(event.stream);
  if (head != heads_.end()) {
    const std::int32_t last = head->second.version;
    if (event.version != last + 1)
      throw LogBroken(event.version <= last
                          ? fmt::format("{} comes after version {} of its stream in id order", event.Label(), last)
                          : fmt::format("{}: versions {} to {} of the stream are missing", event.Label(), last + 1,
                                        event.version - 1));
    prev = head->second.hash;
  } else if (event.version != 0) {
    const auto anchor = anchors_.find(event.stream);
    if (anchor == anchors_.end() || anchor->second.version != event.version)
      throw LogBroken(
          fmt::format("{}: the stream starts at version {} without an anchor there: earlier events "
                      "were removed",
                      event.Label(), event.version));
    prev = anchor->second.prev;
    used_anchors_.push_back(event.stream);
  }
  const std::vector<std::string_view> tags(event.tags.begin(), event.tags.end());
  const Hash computed = hasher_.Compute(prev, core::EventFields{event.stream, event.version, event.name, event.data,
                                                                event.meta, event.created_micros, tags});
  if (computed != event.hash)
    throw LogBroken(fmt::format(
        "{}: its stored hash {} is not the hash of its content chained to {} ({}): the event or its hash was "
        "changed",
        event.Label(), core::ToHex(event.hash), head != heads_.end() ? "the version before" : "its start",
        core::ToHex(computed)));
  heads_.insert_or_assign(event.stream, Head{event.version, computed});
  ++chained_;
}

std::vector<std::pair<std::string, ChainChecker::Anchor>> ChainChecker::UsedAnchors() const {
  std::vector<std::pair<std::string, Anchor>> used;
  for (const std::string& stream : used_anchors_) used.emplace_back(stream, anchors_.at(stream));
  return used;
}

std::unordered_set<std::string> ChainChecker::AnchorPrevs() const {
  std::unordered_set<std::string> prevs;
  for (const auto& [stream, anchor] : anchors_) prevs.emplace(anchor.prev.begin(), anchor.prev.end());
  return prevs;
}

}  // namespace actctl
