#include "react/drain_cycle.hpp"

#include <algorithm>
#include <chrono>
#include <set>
#include <vector>

#include "observe/observers.hpp"
#include "random_uuid.hpp"
#include "react/dispatch.hpp"
#include "react/parallel.hpp"

namespace act::react {
namespace {

// The old read, one act.query per stream: for a target whose row may lack
// some of the names its fetch reads (Registry::row_covers_fetch).
std::vector<Committed> fetch(Store& store, const Registry& registry, const Lease& lease, std::int32_t events) {
  Query query;
  query.stream = lease.source;  // none: every stream
  query.stream_exact = lease.source && !is_pattern(*lease.source);
  query.after = lease.at;
  query.names = registry.fetch_names(lease.stream);
  query.limit = events;
  std::vector<Committed> fetched;
  store.query(query, [&](const Committed& event) { fetched.push_back(event); });
  return fetched;
}

// The row selects events this app has no reaction for (made by another
// version of the app, or shared with one): they are passed over, and said so.
void log_unknown(const CycleDeps& deps, const Lane& lane, const Lease& lease, const std::set<std::string>& names,
                 std::size_t count) {
  std::string listed;
  for (const std::string& name : names) listed += (listed.empty() ? "" : ",") + name;
  deps.app.observers().log(
      LogLevel::kWarning, "events no reaction handles were passed over",
      {{"lane", lane.name}, {"target", lease.stream}, {"names", listed}, {"count", std::to_string(count)}});
}

struct Handed {
  std::vector<Committed> events;  // as handlers are declared for them (upcast)
  // As stored, kept only when personal data meets an upcaster: views are
  // made from these and then upcast, so an upcaster sees an older shape's
  // personal fields. Empty: `events` are as stored.
  std::vector<Committed> stored;

  const std::vector<Committed>& as_stored() const { return stored.empty() ? events : stored; }
  std::int64_t fetched_to = -1;  // the watermark once they are handled
};

// The claim's events narrowed to the fetch's names: the row may select more
// (made by an older version of the app). Handing over every event up to the
// last one claimed is safe to acknowledge: the row's events include every
// event of those names in that range.
Handed handed_events(const CycleDeps& deps, const Lane& lane, ClaimedLease& claimed) {
  const Registry& registry = deps.registry;
  const Lease& lease = claimed.lease;
  Handed handed;
  if (!registry.row_covers_fetch(lease.stream) && !deps.coverage.covers(lease.stream)) {
    handed.events = fetch(deps.app.store(), registry, lease, lane.events);
    handed.fetched_to = handed.events.empty() ? lease.at : handed.events.back().id;
  } else {
    handed.fetched_to = claimed.events.empty() ? lease.at : claimed.events.back().id;
    const std::vector<std::string> names = registry.fetch_names(lease.stream);
    std::set<std::string> unknown;
    for (Committed& event : claimed.events) {
      if (std::find(names.begin(), names.end(), event.name) != names.end()) {
        handed.events.push_back(std::move(event));
      } else {
        unknown.insert(event.name);
      }
    }
    if (!unknown.empty()) log_unknown(deps, lane, lease, unknown, claimed.events.size() - handed.events.size());
  }
  // Selected by their stored names, handled as the versions handlers declare.
  if (registry.has_personal_data() && std::any_of(handed.events.begin(), handed.events.end(),
                                                  [&](const Committed& e) { return registry.upcasts(e.name); }))
    handed.stored = handed.events;
  for (Committed& event : handed.events) registry.upcast(event);
  return handed;
}

// The rows of the claimed targets whose coverage neither the registry nor
// an earlier cycle knows. A failed read teaches nothing: those targets are
// read with act.query, which reports its own failure.
void learn_rows(CycleDeps& deps, const std::vector<Lease>& leases) {
  std::vector<std::string> unknown;
  for (const Lease& lease : leases) {
    if (!deps.registry.row_covers_fetch(lease.stream) && !deps.coverage.known(lease.stream))
      unknown.push_back(lease.stream);
  }
  if (unknown.empty()) return;
  try {
    deps.coverage.learn(deps.app.store(), deps.registry, unknown);
  } catch (const std::exception& error) {
    deps.app.observers().log(LogLevel::kWarning,
                             "could not read the claimed targets' rows; their events are read with act.query",
                             {{"error", error.what()}});
  }
}

std::vector<Payload> payloads_for(const Registry& registry, const Lease& lease, const std::vector<Committed>& events) {
  std::vector<Payload> payloads;
  for (const Committed& event : events) {
    for (const detail::ReactionModel* reaction : registry.reactions_for(event, lease.stream))
      payloads.push_back(Payload{reaction, &event});
  }
  return payloads;
}

// The events as handlers that disclose personal data see them, and as the
// others do; each built only when some payload needs it.
struct Views {
  std::vector<Committed> disclosed;
  std::vector<Committed> stripped;
};

// Points each payload at the view of its event its reaction may see.
void show_personal_data(const Registry& registry, const Handed& handed, std::vector<Payload>& payloads, Views& views) {
  if (!registry.has_personal_data()) return;
  for (Payload& payload : payloads) {
    std::vector<Committed>& view = payload.reaction->discloses_pii ? views.disclosed : views.stripped;
    if (view.empty()) view = registry.personal_view(handed.as_stored(), payload.reaction->discloses_pii);
    payload.event = &view[static_cast<std::size_t>(payload.event - handed.events.data())];
  }
}

Outcome handle(CycleDeps& deps, const Lane& lane, const Lease& lease, const Handed& handed) {
  const std::vector<Committed>& events = handed.events;
  const std::int64_t fetched_to = handed.fetched_to;
  if (const detail::ProjectionModel* projection = deps.registry.projection_for(lease.stream)) {
    if (events.empty()) return moved_to(fetched_to);
    const std::vector<Committed> view = deps.registry.personal_view(handed.as_stored(), projection->discloses_pii);
    return dispatch_projection(deps.app, *projection, lease, view.empty() ? events : view, fetched_to, lane.lease,
                               deps.stopping);
  }
  std::vector<Payload> payloads = payloads_for(deps.registry, lease, events);
  Views views;  // outlives the dispatch: payloads point into it
  show_personal_data(deps.registry, handed, payloads, views);
  if (payloads.empty()) return moved_to(fetched_to);
  const ReactionOptions& options = payloads.front().reaction->options;
  if (options.block_on_error && lease.retry > options.max_retries) {
    // Every attempt so far lost its lease before it could report: give up.
    Outcome spent = moved_to(lease.at);
    spent.error = "blocked after " + std::to_string(lease.retry) +
                  " claims without acknowledged progress (leases expiring mid-handler?)";
    spent.block = true;
    spent.failed_on(*payloads.front().event);  // where the stream is stuck
    spent.failed_reaction = payloads.front().reaction->name;
    return spent;
  }
  return dispatch_reactions(deps.app, lease, payloads, fetched_to, deps.stopping);
}

// The database dropped an acknowledgement: another worker holds the target
// now and handles those events again (reactions are at least once).
void log_lost_ack(const CycleDeps& deps, const Lane& lane, const std::string& target, std::int64_t at) {
  deps.app.observers().log(LogLevel::kWarning, "acknowledgement lost: the lease passed to another worker",
                           {{"lane", lane.name}, {"target", target}, {"at", std::to_string(at)}});
}

// Tells on_acked of the plain acknowledgements act.ack applied that moved a
// watermark, and logs those it dropped (the lease had passed to another
// worker, which handles those events again). Returns how many it dropped.
std::int32_t acks_landed(const CycleDeps& deps, const Lane& lane, const std::vector<Acknowledgement>& sent,
                         const std::vector<Lease>& applied) {
  std::int32_t lost = 0;
  for (const Acknowledgement& ack : sent) {
    if (ack.due) continue;  // applied but never returned
    const bool landed = std::any_of(applied.begin(), applied.end(),
                                    [&](const Lease& lease) { return lease.stream == ack.lease.stream; });
    if (landed) {
      if (ack.at > ack.lease.at) deps.app.observers().acked(Acked{lane.name, ack.lease.stream, ack.at});
      continue;
    }
    ++lost;
    log_lost_ack(deps, lane, ack.lease.stream, ack.at);
  }
  return lost;
}

// A claimed target that is surely another app's (Registry::may_own): left
// as found, said once per target and process.
Outcome left_alone(CycleDeps& deps, const Lane& lane, const ClaimedLease& claimed) {
  if (deps.foreign.first_time(claimed.lease.stream)) {
    std::set<std::string> names;
    for (const Committed& event : claimed.events) names.insert(event.name);
    std::string listed;
    for (const std::string& name : names) listed += (listed.empty() ? "" : ",") + name;
    deps.app.observers().log(LogLevel::kWarning, "a claimed target no route of this app leads to was left to its app",
                             {{"lane", lane.name}, {"target", claimed.lease.stream}, {"names", listed}});
  }
  Outcome outcome = moved_to(claimed.lease.at);
  outcome.left = true;
  return outcome;
}

// One claimed target: its events through its handlers. Never throws: a read
// or a resolver that fails leaves the target to its lease (the cycle's other
// targets are still acknowledged).
Outcome handle_claimed(CycleDeps& deps, const Lane& lane, ClaimedLease& claimed, std::int64_t& fetched) noexcept {
  const Lease& lease = claimed.lease;
  if (deps.stopping.load(std::memory_order_relaxed)) return moved_to(lease.at);  // released untouched
  Outcome untouched = moved_to(lease.at);
  untouched.acknowledged = true;
  try {
    if (!deps.registry.may_own(lease.stream, claimed.events)) return left_alone(deps, lane, claimed);
    const Handed handed = handed_events(deps, lane, claimed);
    fetched = static_cast<std::int64_t>(handed.events.size());
    return handle(deps, lane, lease, handed);
  } catch (const std::exception& error) {
    untouched.error = error.what();
  } catch (...) {
    untouched.error = "a resolver threw a non-exception";
  }
  if (const detail::ProjectionModel* projection = deps.registry.projection_for(lease.stream))
    untouched.failed_reaction = projection->route.target;
  return untouched;
}

// A projection acknowledges in its own transaction: tell on_acked, or log the loss.
void projection_acked(const CycleDeps& deps, const Lane& lane, const Lease& lease, const Outcome& outcome) {
  if (outcome.lost && !outcome.error) {
    log_lost_ack(deps, lane, lease.stream, outcome.acked_at);
  } else if (!outcome.lost && outcome.handled > 0) {
    deps.app.observers().acked(Acked{lane.name, lease.stream, outcome.acked_at});
  }
}

}  // namespace

DrainResult flush_acks(CycleDeps& deps, const Lane& lane, PendingAcks& pending) {
  DrainResult result;
  const std::vector<Acknowledgement> acks = std::move(pending.acks);
  pending.acks.clear();
  if (acks.empty()) return result;
  result.lost = acks_landed(deps, lane, acks, deps.app.store().ack(acks));
  return result;
}

CycleReport run_cycle(CycleDeps& deps, const Lane& lane, std::int32_t lagging, std::int32_t leading,
                      PendingAcks& pending, AckMode mode, const ParkedWait* parked) {
  CycleReport report;
  Store& store = deps.app.store();
  const std::string by = detail::random_uuid();  // a fresh holder id per cycle
  const auto claimed_at = std::chrono::steady_clock::now();
  // Taken out first: if the call fails they are gone, as a failed act.ack's
  // would be, and their leases run out (a bad entry must not fail every claim after it).
  const std::vector<Acknowledgement> carried = std::move(pending.acks);
  pending.acks.clear();
  ClaimRequest request{lagging, leading, by, lane.lease, lane.name, lane.events, lane.bytes};
  std::vector<ClaimedLease> claimed;
  if (parked != nullptr && carried.empty()) {
    request.wait = parked->wait;
    claimed = parked->claim.claim(parked->conninfo, request);
  } else {
    claimed = store.claim_events(request, carried);
  }
  // Carried acknowledgements rode on the claim; act.claim_events does not say
  // which it dropped (a lease already lost), so those that moved are told as landed.
  for (const Acknowledgement& ack : carried) {
    if (!ack.due && ack.at > ack.lease.at) deps.app.observers().acked(Acked{lane.name, ack.lease.stream, ack.at});
  }
  report.result.leased = static_cast<std::int32_t>(claimed.size());
  if (claimed.empty()) return report;
  std::vector<Lease> leases;
  leases.reserve(claimed.size());
  for (const ClaimedLease& entry : claimed) leases.push_back(entry.lease);

  learn_rows(deps, leases);

  std::vector<Outcome> outcomes(claimed.size());
  std::vector<std::int64_t> fetched(claimed.size(), 0);
  // Each target on one thread, in order; targets side by side when the lane allows.
  for_each_index(claimed.size(), lane.threads,
                 [&](std::size_t i) { outcomes[i] = handle_claimed(deps, lane, claimed[i], fetched[i]); });
  for (const std::int64_t count : fetched) report.result.fetched += count;

  // Block before the acknowledgements: both need the lease, which ack releases.
  const std::string where = "lane " + lane.name;
  std::vector<BlockedLease> to_block;
  std::vector<ReactionFailure> blocking;
  std::vector<Acknowledgement> to_ack;
  for (std::size_t i = 0; i < leases.size(); ++i) {
    const Lease& lease = leases[i];
    const Outcome& outcome = outcomes[i];
    report.result.handled += outcome.handled;
    if (outcome.handled > 0) report.handled_by_target[lease.stream] += outcome.handled;
    (lease.lagging ? report.handled_lagging : report.handled_leading) += outcome.handled;
    if (outcome.error) {
      ReactionFailure failure{lease.stream, outcome.failed_id, outcome.failed_name,     *outcome.error,
                              lease.retry,  outcome.block,     outcome.failed_reaction, outcome.failed_stream};
      deps.app.observers().heard_failure(where, failure);
      if (outcome.block && outcome.acknowledged) {  // blocked in the projection's transaction
        ++report.result.blocked;
        deps.app.observers().blocked(failure);
      } else if (outcome.block) {
        blocking.push_back(failure);
      }
      report.result.add_failure(std::move(failure));
    }
    for (const auto& due : {outcome.defer_until, outcome.retry_at}) {
      if (due && (!report.next_due || *due < *report.next_due)) report.next_due = due;
    }
    if (outcome.acknowledged) {
      projection_acked(deps, lane, lease, outcome);
      if (outcome.lost) ++report.result.lost;
      if (outcome.handled > 0) ++report.result.advanced;
      continue;
    }
    if (outcome.left) {
      // Handed back as claimed: claimable at once, the claim's raise of retry undone.
      to_ack.push_back(Acknowledgement{lease, lease.at, timestamp_now(), lease.retry - 1});
      continue;
    }
    if (outcome.block) to_block.push_back(BlockedLease{lease, *outcome.error});
    const std::int64_t advance = outcome.handled > 0 ? outcome.acked_at : lease.at;
    if (outcome.defer_until || outcome.retry_at) {
      // Applied but not returned by ack.
      if (outcome.defer_until) {
        to_ack.push_back(Acknowledgement{lease, advance, outcome.defer_until, -1});
      } else {
        to_ack.push_back(Acknowledgement{lease, advance, outcome.retry_at, lease.retry});
      }
      if (outcome.handled > 0) ++report.result.advanced;
    } else if (outcome.error && !outcome.block && outcome.handled > 0) {
      // Progress before a failure with budget left and no backoff: keep the
      // progress and the attempt's count (a plain ack would reset retry, and
      // the failing event would start a fresh budget), retried after the lease time.
      to_ack.push_back(Acknowledgement{lease, outcome.acked_at, timestamp_now() + lane.lease, lease.retry});
      ++report.result.advanced;
    } else if (outcome.handled > 0 || !outcome.error) {
      to_ack.push_back(Acknowledgement{lease, outcome.acked_at, std::nullopt, std::nullopt});
    }  // else: a failure with budget left and no backoff keeps its lease until it expires
  }
  const std::vector<BlockedLease> blocked = store.block(to_block);
  report.result.blocked += static_cast<std::int32_t>(blocked.size());
  for (const BlockedLease& entry : blocked) {
    const auto failure = std::find_if(blocking.begin(), blocking.end(),
                                      [&](const ReactionFailure& f) { return f.target == entry.lease.stream; });
    if (failure != blocking.end()) deps.app.observers().blocked(*failure);
  }
  // Held past half the lease, an acknowledgement might find it gone: send it now.
  if (mode == AckMode::kCarry && std::chrono::steady_clock::now() - claimed_at < lane.lease / 2) {
    for (const Acknowledgement& ack : to_ack) {
      if (!ack.due && ack.at > ack.lease.at) ++report.result.advanced;
    }
    pending.acks = std::move(to_ack);
    pending.claimed_at = claimed_at;
    return report;
  }
  const std::vector<Lease> acked = store.ack(to_ack);
  report.result.lost += acks_landed(deps, lane, to_ack, acked);
  for (const Lease& after : acked) {
    const auto before =
        std::find_if(leases.begin(), leases.end(), [&](const Lease& l) { return l.stream == after.stream; });
    if (before != leases.end() && after.at > before->at) ++report.result.advanced;
  }
  return report;
}

}  // namespace act::react
