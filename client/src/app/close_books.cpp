// App::close: full closes (retire or restart) and retention windows.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "act/app.hpp"
#include "act/detail/event_versions.hpp"
#include "act/errors.hpp"
#include "app/app_core.hpp"
#include "app/autoclose.hpp"
#include "app/causation.hpp"
#include "app/close_books.hpp"
#include "app/loader.hpp"
#include "random_uuid.hpp"
#include "react/reactor.hpp"

namespace act {
namespace {

constexpr int kCorrelatePasses = 20;  // a bounded catch-up, as settle's passes are
constexpr std::int32_t kRowsPerPage = 1000;


// Correlates until its checkpoint stops moving; the checkpoint, when the
// app has dynamic targets (events above it may be work for a target no row
// stands for yet).
std::optional<std::int64_t> correlation_checkpoint(react::Reactor& reactor) {
  if (!reactor.has_dynamic()) return std::nullopt;
  std::int64_t checkpoint = -1;
  for (int pass = 0; pass < kCorrelatePasses; ++pass) {
    const CorrelateResult result = reactor.correlate();
    if (result.checkpoint == checkpoint && result.events == 0) break;
    checkpoint = result.checkpoint;
  }
  return checkpoint;
}

// The lowest watermark of a subscription that reads the stream and still
// has work; none when every such row is caught up.
std::optional<std::int64_t> lowest_pending(Store& store, const std::string& stream) {
  StreamFilter filter;
  filter.source_matches = std::vector<std::string>{stream};
  std::optional<std::int64_t> lowest;
  std::optional<std::string> after;
  for (;;) {
    const std::vector<Subscription> rows = store.query_streams(filter, after, kRowsPerPage);
    for (const Subscription& row : rows) {
      // The filter matches a literal source as a pattern too: hold it to its name.
      if (row.source && !row.source->empty() && !is_pattern(*row.source) && *row.source != stream) continue;
      // Autoclose reads only the stream's head, never the events a close deletes.
      if (app_detail::is_autoclose_target(row.stream)) continue;
      const bool has_work = row.correlated_at && row.at < *row.correlated_at;
      if (has_work) lowest = std::min(lowest.value_or(row.at), row.at);
    }
    if (static_cast<std::int32_t>(rows.size()) < kRowsPerPage) return lowest;
    after = rows.back().stream;
  }
}

// Is work of some reaction still at or below `id` in this stream?
bool work_left(Store& store, const std::string& stream, std::int64_t id, std::optional<std::int64_t> checkpoint) {
  if (checkpoint && *checkpoint < id) return true;
  const std::optional<std::int64_t> pending = lowest_pending(store, stream);
  return pending && *pending < id;
}

std::optional<StreamStats> head_of(Store& store, const std::string& stream, std::vector<std::string> exclude) {
  StatsQuery query;
  query.streams = std::vector<std::string>{stream};
  query.exclude = std::move(exclude);
  std::vector<StreamStats> stats = store.query_stats(query);
  if (stats.empty()) return std::nullopt;
  return std::move(stats.front());
}

// The state that folds the stream's last domain event, to seed a restart with.
std::shared_ptr<const detail::StateModel> owner_of(const app_detail::AppCore& core, const std::string& event_name) {
  for (const auto& state : core.states) {
    if (state->reducers.contains(detail::newest_name(state->upcasts, event_name))) return state;
  }
  return nullptr;
}

// A full close, planned before any archive runs.
struct FullClose {
  const CloseTarget* target;
  std::int32_t head = -1;  // the version the close is guarded by
  TruncateTarget truncate;
  std::shared_ptr<const detail::StateModel> owner;  // set for a restart
  std::optional<detail::AnySnapshot> seed;
};

// A retention window, planned before any archive runs.
struct Window {
  const CloseTarget* target;
  std::optional<std::int64_t> cap;  // the most it may delete up to: below work a reaction has left
};

// None when no snapshot bounds the window (or nothing precedes the one that does).
std::optional<Window> plan_window(app_detail::AppCore& core, const CloseTarget& target,
                                  std::optional<std::int64_t> checkpoint) {
  std::optional<std::int64_t> cap = lowest_pending(core.store, target.stream);
  if (checkpoint) cap = std::min(cap.value_or(*checkpoint), *checkpoint);
  Query boundary;
  boundary.stream = target.stream;
  boundary.names = std::vector<std::string>{std::string(kSnapshotEvent)};
  boundary.with_snaps = true;
  boundary.created_before = target.before;
  if (cap) boundary.before = *cap + 1;
  boundary.backward = true;
  boundary.limit = 1;
  std::optional<Committed> found;
  core.store.query(boundary, [&](const Committed& event) { found = event; });
  if (!found) return std::nullopt;
  // Trimmed there already (or the stream starts there): nothing to archive or delete.
  Query earlier;
  earlier.stream = target.stream;
  earlier.with_snaps = true;
  earlier.after = -1;  // from the first event, not the latest snapshot
  earlier.before = found->id;
  earlier.limit = 1;
  if (core.store.query(earlier, [](const Committed&) {}) == 0) return std::nullopt;
  return Window{&target, cap};
}

}  // namespace

CloseResult App::close(const std::vector<CloseTarget>& targets) {
  if (partitions() == 1) return app_detail::close_books(*cores_.front(), targets);
  app_detail::check_targets(targets);  // all of them before any partition closes its own
  std::vector<std::vector<CloseTarget>> by_partition(cores_.size());
  for (const CloseTarget& target : targets)
    by_partition[static_cast<std::size_t>(partition_of(target.stream))].push_back(target);
  CloseResult total;
  on_every_partition(partitions(), [&](std::int32_t p) {
    const std::vector<CloseTarget>& mine = by_partition[static_cast<std::size_t>(p)];
    if (mine.empty()) return;
    CloseResult closed = app_detail::close_books(*cores_[static_cast<std::size_t>(p)], mine);
    total.truncated.merge(closed.truncated);
    total.skipped.insert(total.skipped.end(), closed.skipped.begin(), closed.skipped.end());
  });
  return total;
}

void app_detail::check_targets(const std::vector<CloseTarget>& targets) {
  std::set<std::string> seen;
  for (const CloseTarget& target : targets) {
    if (target.stream.empty()) throw std::invalid_argument("close(): a target without a stream");
    if (target.restart && target.before)
      throw std::invalid_argument("close(): " + target.stream + " has both restart and before: a window keeps the stream");
    if (!seen.insert(target.stream).second) throw std::invalid_argument("close(): " + target.stream + " is named twice");
  }
}

CloseResult app_detail::close_books(AppCore& core, const std::vector<CloseTarget>& all_targets) {
  check_targets(all_targets);
  CloseResult result;
  // A read model over every partition that has not applied a stream's last
  // event would never see the events the close deletes: left as it is.
  result.skipped = core.reactor->unapplied(all_targets);
  std::vector<CloseTarget> targets;
  for (const CloseTarget& target : all_targets)
    if (std::find(result.skipped.begin(), result.skipped.end(), target.stream) == result.skipped.end())
      targets.push_back(target);
  const std::optional<std::int64_t> checkpoint = correlation_checkpoint(*core.reactor);
  const nlohmann::json meta = {{"correlation", detail::random_uuid()}, {"causation", nlohmann::json::object()}};

  std::vector<FullClose> full;
  for (const CloseTarget& target : targets) {
    if (target.before) continue;
    const std::optional<StreamStats> domain =
        head_of(core.store, target.stream, {std::string(kSnapshotEvent), std::string(kTombstoneEvent)});
    if (!domain) continue;  // nothing but a seed or a tombstone: closed already, or never written
    const std::optional<StreamStats> head = head_of(core.store, target.stream, {});
    if (!head || head->head.name == kTombstoneEvent || work_left(core.store, target.stream, domain->head.id, checkpoint)) {
      result.skipped.push_back(target.stream);
      continue;
    }
    FullClose plan{&target, head->head.version, TruncateTarget{target.stream, {}, meta, {}, {}}, nullptr, std::nullopt};
    if (target.restart) {
      // No state to seed from (none owns the last event, or it cannot be
      // written as JSON), or one whose seed would keep one reader's view:
      // left alone rather than retired by mistake.
      plan.owner = owner_of(core, domain->head.name);
      if (!plan.owner || !plan.owner->serialize || plan.owner->personal()) {
        result.skipped.push_back(target.stream);
        continue;
      }
      plan.seed = app_detail::load_current(core.store, core.cache, core.counters, *plan.owner, target.stream,
                                           app_detail::CacheUse::kBypass);
      if (plan.seed->version != plan.head) {  // committed since the head was read
        result.skipped.push_back(target.stream);
        continue;
      }
      plan.truncate.snapshot = plan.owner->serialize(plan.seed->state);
      (*plan.truncate.meta)["state_version"] = plan.owner->version;  // restored by this shape only
    }
    full.push_back(std::move(plan));
  }

  std::vector<Window> windows;
  for (const CloseTarget& target : targets) {
    if (!target.before) continue;
    if (std::optional<Window> window = plan_window(core, target, checkpoint)) {
      windows.push_back(*window);
    } else {
      result.skipped.push_back(target.stream);
    }
  }

  // Every archive before any deletion: one that throws leaves every stream as it was.
  for (const FullClose& plan : full)
    if (plan.target->archive) plan.target->archive(plan.target->stream);
  for (const Window& window : windows)
    if (window.target->archive) window.target->archive(window.target->stream);

  for (FullClose& plan : full) {
    const std::string& stream = plan.target->stream;
    try {
      Truncated truncated = core.store.truncate_at(plan.truncate, plan.head);
      if (plan.truncate.snapshot) {
        detail::AnySnapshot& seed = *plan.seed;
        core.cache.put(stream, cache::Entry{seed.state, truncated.version, truncated.id, 0, 1});
      } else {
        core.cache.drop(stream);
      }
      result.truncated.emplace(stream, std::move(truncated));
    } catch (const ConcurrencyError&) {
      result.skipped.push_back(stream);  // a commit landed after its archive
    }
  }

  for (const Window& window : windows) {
    const CloseTarget& target = *window.target;
    std::vector<Truncated> rows = core.store.truncate({TruncateTarget{target.stream, {}, {}, target.before, window.cap}});
    if (rows.empty()) {
      result.skipped.push_back(target.stream);
    } else {
      result.truncated.emplace(target.stream, std::move(rows.front()));
    }
  }
  return result;
}

}  // namespace act
