#include "react/drain_cycle.hpp"

#include <algorithm>
#include <vector>

#include "app/app_core.hpp"
#include "app/causation.hpp"
#include "react/dispatch.hpp"

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

struct Handed {
  std::vector<Committed> events;
  std::int64_t fetched_to = -1;  // the watermark once they are handled
};

// The claim's events narrowed to the fetch's names: the row may select more
// (made by an older version of the app). Handing over every event up to the
// last one claimed is safe to acknowledge: the row's events include every
// event of those names in that range.
Handed handed_events(Store& store, const Registry& registry, const RowCoverage& coverage, ClaimedLease& claimed,
                     std::int32_t events) {
  const Lease& lease = claimed.lease;
  Handed handed;
  if (!registry.row_covers_fetch(lease.stream) && !coverage.covers(lease.stream)) {
    handed.events = fetch(store, registry, lease, events);
    handed.fetched_to = handed.events.empty() ? lease.at : handed.events.back().id;
  } else {
    handed.fetched_to = claimed.events.empty() ? lease.at : claimed.events.back().id;
    const std::vector<std::string> names = registry.fetch_names(lease.stream);
    for (Committed& event : claimed.events) {
      if (std::find(names.begin(), names.end(), event.name) != names.end()) handed.events.push_back(std::move(event));
    }
  }
  // Selected by their stored names, handled as the versions handlers declare.
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
    deps.coverage.learn(deps.core.store, deps.registry, unknown);
  } catch (const std::exception&) {
  }
}

// The events as handlers that disclose personal data see them, and as the others do.
struct Views {
  std::vector<Committed> disclosed;
  std::vector<Committed> stripped;
};

std::vector<Payload> payloads_for(const Registry& registry, const Lease& lease, const std::vector<Committed>& events,
                                  const Views& views) {
  std::vector<Payload> payloads;
  for (std::size_t i = 0; i < events.size(); ++i) {
    for (const detail::ReactionModel* reaction : registry.reactions_for(events[i], lease.stream)) {
      const std::vector<Committed>& view = reaction->discloses_pii ? views.disclosed : views.stripped;
      payloads.push_back(Payload{reaction, view.empty() ? &events[i] : &view[i]});
    }
  }
  return payloads;
}

Outcome handle(CycleDeps& deps, const Lease& lease, const std::vector<Committed>& events, std::int64_t fetched_to) {
  if (const detail::ProjectionModel* projection = deps.registry.projection_for(lease.stream)) {
    if (events.empty()) return moved_to(fetched_to);
    const std::vector<Committed> view = deps.registry.personal_view(events, projection->discloses_pii);
    return dispatch_projection(deps.core.store.pool(), *projection, lease, view.empty() ? events : view, fetched_to);
  }
  const Views views{deps.registry.personal_view(events, true), deps.registry.personal_view(events, false)};
  const std::vector<Payload> payloads = payloads_for(deps.registry, lease, events, views);
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
  return dispatch_reactions(deps.core, lease, payloads, fetched_to, deps.stopping);
}

}  // namespace

void report_failure(const CycleDeps& deps, const ReactionFailure& failure) noexcept {
  if (!deps.on_failure) return;
  try {
    deps.on_failure(failure);
  } catch (...) {
  }
}

DrainResult flush_acks(Store& store, PendingAcks& pending) {
  DrainResult result;
  const std::vector<Acknowledgement> acks = std::move(pending.acks);
  pending.acks.clear();
  if (acks.empty()) return result;
  const auto plain = std::count_if(acks.begin(), acks.end(), [](const Acknowledgement& ack) { return !ack.due; });
  result.lost = static_cast<std::int32_t>(plain - static_cast<std::int64_t>(store.ack(acks).size()));
  return result;
}

CycleReport run_cycle(CycleDeps& deps, const Lane& lane, std::int32_t lagging, std::int32_t leading,
                      PendingAcks& pending, AckMode mode) {
  CycleReport report;
  Store& store = deps.core.store;
  const std::string by = app_detail::new_correlation_id();  // a fresh holder id per cycle
  const auto claimed_at = std::chrono::steady_clock::now();
  // Taken out first: if the call fails they are gone, as a failed act.ack's
  // would be, and their leases run out (a bad entry must not fail every claim after it).
  const std::vector<Acknowledgement> carried = std::move(pending.acks);
  pending.acks.clear();
  std::vector<ClaimedLease> claimed =
      store.claim_events(ClaimRequest{lagging, leading, by, lane.lease, lane.name, lane.events}, carried);
  report.result.leased = static_cast<std::int32_t>(claimed.size());
  if (claimed.empty()) return report;
  std::vector<Lease> leases;
  leases.reserve(claimed.size());
  for (const ClaimedLease& entry : claimed) leases.push_back(entry.lease);

  learn_rows(deps, leases);

  std::vector<Outcome> outcomes;
  outcomes.reserve(leases.size());
  for (ClaimedLease& entry : claimed) {
    const Lease& lease = entry.lease;
    if (deps.stopping.load(std::memory_order_relaxed)) {
      outcomes.push_back(moved_to(lease.at));  // released untouched
      continue;
    }
    try {
      const Handed handed = handed_events(store, deps.registry, deps.coverage, entry, lane.events);
      report.result.fetched += static_cast<std::int64_t>(handed.events.size());
      outcomes.push_back(handle(deps, lease, handed.events, handed.fetched_to));
    } catch (const std::exception& error) {
      // The read failed, or a resolver threw: this stream waits for its lease
      // to expire; the cycle's other streams are still acknowledged.
      Outcome untouched = moved_to(lease.at);
      untouched.error = error.what();
      if (const detail::ProjectionModel* projection = deps.registry.projection_for(lease.stream))
        untouched.failed_reaction = projection->route.target;
      untouched.acknowledged = true;
      outcomes.push_back(std::move(untouched));
    }
  }

  // Block before the acknowledgements: both need the lease, which ack releases.
  std::vector<BlockedLease> to_block;
  std::vector<Acknowledgement> to_ack;
  std::int32_t plain_acks = 0;
  for (std::size_t i = 0; i < leases.size(); ++i) {
    const Lease& lease = leases[i];
    const Outcome& outcome = outcomes[i];
    report.result.handled += outcome.handled;
    if (outcome.handled > 0) report.handled_by_target[lease.stream] += outcome.handled;
    (lease.lagging ? report.handled_lagging : report.handled_leading) += outcome.handled;
    if (outcome.error) {
      ReactionFailure failure{lease.stream, outcome.failed_id, outcome.failed_name,     *outcome.error,
                              lease.retry,  outcome.block,     outcome.failed_reaction, outcome.failed_stream};
      report_failure(deps, failure);
      report.result.add_failure(std::move(failure));
    }
    if (outcome.acknowledged) {
      if (outcome.lost) ++report.result.lost;
      if (outcome.handled > 0) ++report.result.advanced;
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
    } else if (outcome.handled > 0 || !outcome.error) {
      to_ack.push_back(Acknowledgement{lease, outcome.acked_at, std::nullopt, std::nullopt});
      ++plain_acks;
    }  // else: a failure with budget left and no backoff keeps its lease until it expires
    for (const auto& due : {outcome.defer_until, outcome.retry_at}) {
      if (due && (!report.next_due || *due < *report.next_due)) report.next_due = due;
    }
  }
  report.result.blocked = static_cast<std::int32_t>(store.block(to_block).size());
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
  report.result.lost += plain_acks - static_cast<std::int32_t>(acked.size());
  for (const Lease& after : acked) {
    const auto before = std::find_if(leases.begin(), leases.end(), [&](const Lease& l) { return l.stream == after.stream; });
    if (before != leases.end() && after.at > before->at) ++report.result.advanced;
  }
  return report;
}

}  // namespace act::react
