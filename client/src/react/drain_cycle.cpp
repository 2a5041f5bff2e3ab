#include "react/drain_cycle.hpp"

#include <algorithm>
#include <vector>

#include "app/app_core.hpp"
#include "app/causation.hpp"
#include "react/dispatch.hpp"

namespace act::react {
namespace {

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

std::vector<Payload> payloads_for(const Registry& registry, const Lease& lease, const std::vector<Committed>& events) {
  std::vector<Payload> payloads;
  for (const Committed& event : events) {
    for (const detail::ReactionModel* reaction : registry.reactions_for(event, lease.stream))
      payloads.push_back(Payload{reaction, &event});
  }
  return payloads;
}

Outcome handle(CycleDeps& deps, const Lease& lease, const std::vector<Committed>& events, std::int64_t fetched_to) {
  if (const detail::ProjectionModel* projection = deps.registry.projection_for(lease.stream)) {
    if (events.empty()) return moved_to(fetched_to);
    return dispatch_projection(deps.core.store.pool(), *projection, lease, events, fetched_to);
  }
  const std::vector<Payload> payloads = payloads_for(deps.registry, lease, events);
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

CycleReport run_cycle(CycleDeps& deps, const Lane& lane, std::int32_t lagging, std::int32_t leading) {
  CycleReport report;
  Store& store = deps.core.store;
  const std::string by = app_detail::new_correlation_id();  // a fresh holder id per cycle
  const std::vector<Lease> leases = store.claim(lagging, leading, by, lane.lease, lane.name);
  report.result.leased = static_cast<std::int32_t>(leases.size());
  if (leases.empty()) return report;

  std::vector<Outcome> outcomes;
  outcomes.reserve(leases.size());
  for (const Lease& lease : leases) {
    if (deps.stopping.load(std::memory_order_relaxed)) {
      outcomes.push_back(moved_to(lease.at));  // released untouched
      continue;
    }
    try {
      const std::vector<Committed> events = fetch(store, deps.registry, lease, lane.events);
      report.result.fetched += static_cast<std::int64_t>(events.size());
      outcomes.push_back(handle(deps, lease, events, events.empty() ? lease.at : events.back().id));
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
  const std::vector<Lease> acked = store.ack(to_ack);
  report.result.lost += plain_acks - static_cast<std::int32_t>(acked.size());
  for (const Lease& after : acked) {
    const auto claimed = std::find_if(leases.begin(), leases.end(), [&](const Lease& l) { return l.stream == after.stream; });
    if (claimed != leases.end() && after.at > claimed->at) ++report.result.advanced;
  }
  return report;
}

}  // namespace act::react
