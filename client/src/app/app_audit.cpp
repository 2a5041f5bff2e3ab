// App::audit: StoreAudit's checks on each partition, and those that need
// the app's declarations: subscription rows no handler here serves, streams
// the close policies would close, snapshots that differ from a replay,
// event names the states and the log disagree on. Each reads a bounded
// sample (AuditOptions).
#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "act/app.hpp"
#include "act/audit.hpp"
#include "act/detail/event_versions.hpp"
#include "app/app_core.hpp"
#include "app/autoclose.hpp"
#include "app/loader.hpp"
#include "store/audit_text.hpp"

namespace act {

namespace {

using app_detail::AppCore;

// Rows of the lanes this app's workers claim whose target it cannot serve.
void target_findings(AppCore& core, const AuditOptions& options, std::vector<AuditFinding>& findings) {
  const react::Registry& registry = core.reactor->registry();
  for (const auto& [lane, declared] : registry.lanes()) {
    if (!registry.claims_lane(lane)) continue;
    StreamFilter filter;
    filter.lane = lane;
    for (const Subscription& row : core.store.query_streams(filter, std::nullopt, options.max_rows)) {
      if (registry.may_own_row(row)) continue;
      if (row.blocked || (row.correlated_at && *row.correlated_at > row.at)) {
        findings.push_back({"unhandled_target", Severity::kWarning, row.stream,
                            "has work in lane \"" + lane + "\", which this app's workers claim, and no handler in "
                                "this app: they leave it to another app",
                            "declare its reaction in this app or run the app that has it; to park it: " + audit_text::park_command(row.stream)});
      } else {
        findings.push_back({"orphaned_subscription", Severity::kInfo, row.stream,
                            "no reaction or projection of this app targets it (lane \"" + lane +
                                "\"): a target no longer declared left it",
                            audit_text::park_command(row.stream)});
      }
    }
  }
}

// The streams of the state's recent events, and of the newest events old
// enough for an age condition: where a policy may hold.
std::vector<std::string> close_candidates(AppCore& core, const detail::StateModel& state, const AuditOptions& options,
                                          Timestamp now) {
  std::vector<std::string> names;
  for (const auto& [name, reducer] : state.reducers) names.push_back(name);
  std::set<std::string> streams;
  Query recent;
  recent.names = names;
  recent.backward = true;
  recent.limit = options.recent_events;
  core.store.query(recent, [&](const Committed& event) { streams.insert(event.stream); });
  const AutoclosePolicy& policy = *state.autoclose;
  std::optional<std::chrono::seconds> age = policy.keep;
  for (const auto& after : {policy.all.after, policy.any.after}) {
    if (after && (!age || *after < *age)) age = after;
  }
  if (age) {
    Query aged = recent;
    aged.created_before = now - *age;
    core.store.query(aged, [&](const Committed& event) { streams.insert(event.stream); });
  }
  return {streams.begin(), streams.end()};
}

void autoclose_findings(AppCore& core, const AuditOptions& options, Timestamp now,
                        std::vector<AuditFinding>& findings) {
  for (const auto& state : core.states) {
    if (!state->autoclose) continue;
    const std::vector<std::string> candidates = close_candidates(core, *state, options, now);
    const auto page = static_cast<std::size_t>(options.max_rows);
    for (std::size_t from = 0; from < candidates.size(); from += page) {
      std::vector<std::string> streams(candidates.begin() + static_cast<std::ptrdiff_t>(from),
                                       candidates.begin() + static_cast<std::ptrdiff_t>(std::min(candidates.size(), from + page)));
      for (const StreamStats& stats : core.store.query_stats(app_detail::autoclose_heads(*state, std::move(streams)))) {
        const std::string stream = stats.stream;
        switch (app_detail::close_due(*state, stats, now)) {
          case app_detail::CloseDue::kRetire:
            findings.push_back({"autoclose_due", Severity::kWarning, stream,
                                "state " + state->name + "'s close policy holds on its head (" + stats.head.name +
                                    ", version " + std::to_string(stats.head.version) + ") and it is still open",
                                "app.close({{.stream = \"" + stream + "\"}})"});
            break;
          case app_detail::CloseDue::kTrim:
            findings.push_back({"autoclose_due", Severity::kWarning, stream,
                                "state " + state->name + "'s policy keeps " + audit_text::span(*state->autoclose->keep) +
                                    " of history and the stream holds older events",
                                "app.close({{.stream = \"" + stream + "\", .before = now - keep}})"});
            break;
          case app_detail::CloseDue::kNone:
            break;
        }
      }
    }
  }
}

// The state whose reducers read the stream's first event.
const detail::StateModel* owner_of(const AppCore& core, const Committed& first) {
  for (const auto& state : core.states) {
    if (state->reducers.contains(detail::newest_name(state->upcasts, first.name))) return state.get();
  }
  return nullptr;
}

// Each sampled snapshot against its stream folded from the first event,
// snapshots passed over. A stream whose history starts later (closed with
// a seed, trimmed) has nothing to replay from and is left out.
void snapshot_findings(AppCore& core, const AuditOptions& options, std::vector<AuditFinding>& findings) {
  if (options.snapshots < 1) return;
  std::vector<Committed> snapshots;
  Query latest;
  latest.names = std::vector<std::string>{std::string(kSnapshotEvent)};
  latest.with_snaps = true;
  latest.backward = true;
  latest.limit = options.snapshots;
  core.store.query(latest, [&](const Committed& event) { snapshots.push_back(event); });
  for (const Committed& snapshot : snapshots) {
    std::vector<Committed> events;
    Query history;
    history.stream = snapshot.stream;
    history.before = snapshot.id;
    core.store.query(history, [&](const Committed& event) { events.push_back(event); });
    if (events.empty() || events.front().version != 0) continue;
    const detail::StateModel* owner = owner_of(core, events.front());
    if (!owner || !owner->serialize || owner->personal()) continue;
    if (app_detail::snapshot_version(snapshot) != owner->version) continue;  // passed over by loads already
    detail::AnySnapshot replay;
    replay.state = owner->init();
    for (const Committed& event : events) app_detail::fold(*owner, replay, event, app_detail::SnapshotUse::kPassOver);
    if (owner->serialize(replay.state) == snapshot.data) continue;
    findings.push_back({"snapshot_drift", Severity::kError, snapshot.stream,
                        "the snapshot at version " + std::to_string(snapshot.version) + " (id " +
                            std::to_string(snapshot.id) + ") differs from a replay of its " +
                            std::to_string(events.size()) + " events by state " + owner->name +
                            "'s reducers: loads start from a wrong state",
                        "raise state " + owner->name + "'s version() so loads pass its snapshots over, or "
                            "app.close({{.stream = \"" + snapshot.stream + "\", .restart = true}}) to seed it afresh"});
  }
}

// The names of the most recent events against the names the states fold.
void name_findings(AppCore& core, const AuditOptions& options, std::vector<AuditFinding>& findings) {
  std::map<std::string, std::int64_t> seen;
  std::int64_t sampled = 0;
  Query recent;
  recent.backward = true;
  recent.limit = options.recent_events;
  core.store.query(recent, [&](const Committed& event) {
    ++seen[event.name];
    ++sampled;
  });
  const react::Registry& registry = core.reactor->registry();
  std::set<std::string, std::less<>> folded;
  for (const auto& state : core.states) {
    for (const auto& [name, reducer] : state->reducers) folded.insert(name);
    for (const auto& [name, upcast] : state->upcasts) folded.insert(name);
  }
  const std::string of_last = " of the last " + std::to_string(sampled) + " events";
  for (const auto& [name, count] : seen) {
    if (name == kTombstoneEvent || folded.contains(name) || registry.reacts_to(name)) continue;
    findings.push_back({"unknown_event_name", Severity::kWarning, name,
                        std::to_string(count) + of_last + " are named " + name +
                            ", which no state of this app folds and nothing in it handles",
                        "declare it in the state that owns it (patch<E>(\"" + name +
                            "\", ...)), or in AppBuilder::declares when another app writes it"});
  }
  for (const auto& state : core.states) {
    for (const auto& [name, reducer] : state->reducers) {
      if (seen.contains(name) || state->deprecated.contains(name)) continue;
      findings.push_back({"unused_event_name", Severity::kInfo, name,
                          "state " + state->name + " folds " + name + " but none" + of_last + " has that name",
                          "SELECT count(*) FROM act.query(names => ARRAY['" + name +
                              "'], max_events => 1); none at all: drop its reducer, or mark it replaced (a _vN name)"});
    }
  }
}

}  // namespace

std::vector<AuditFinding> App::audit(const AuditOptions& options) {
  std::vector<AuditFinding> findings;
  for (std::size_t partition = 0; partition < cores_.size(); ++partition) {
    AppCore& core = *cores_[partition];
    AuditOptions local = options;
    if (!local.clock) local.clock = core.clock;
    if (!local.clock) local.clock = timestamp_now;
    std::vector<AuditFinding> found = StoreAudit(core.store.shared_pool(), local).run();
    target_findings(core, local, found);
    autoclose_findings(core, local, local.clock(), found);
    snapshot_findings(core, local, found);
    name_findings(core, local, found);
    if (cores_.size() > 1) {
      for (AuditFinding& finding : found) finding.message = "partition " + std::to_string(partition) + ": " + finding.message;
    }
    std::move(found.begin(), found.end(), std::back_inserter(findings));
  }
  return findings;
}

}  // namespace act
