#include "react/correlator.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <map>

namespace act::react {
namespace {

// Whether the target's fetch (its source) reads this event. A pattern is
// left to the database, which marks pattern rows at commit and at
// subscribe with its own regex engine: a mark the fetch could not reach
// would keep the target claimable for ever.
bool marks(const Route& route, const Committed& event) {
  return !route.source || (!is_pattern(*route.source) && *route.source == event.stream);
}

}  // namespace

Correlator::Correlator(Store& store, const Registry& registry, const RowCoverage& coverage, std::string worker_id)
    : store_(store), registry_(registry), coverage_(coverage), by_(std::move(worker_id)) {}

bool Correlator::changes_nothing(const std::map<std::string, SubscriptionSpec>& targets) const {
  return std::all_of(targets.begin(), targets.end(), [&](const auto& entry) {
    const auto& [target, spec] = entry;
    const auto known = subscribed_.find(target);
    if (known == subscribed_.end() || known->second.priority != spec.priority || known->second.lane != spec.lane)
      return false;
    return !spec.correlated_at || coverage_.covers(target);
  });
}

void Correlator::remember(const std::vector<SubscriptionSpec>& subscribed) {
  if (subscribed_.size() + subscribed.size() > kRemembered) subscribed_.clear();
  for (const SubscriptionSpec& spec : subscribed) subscribed_.insert_or_assign(spec.stream, Subscribed{spec.priority, spec.lane});
}

bool Correlator::hold_lease() {
  const auto now = std::chrono::steady_clock::now();
  if (lease_until_ - now > kLease / 2) return true;  // renewed with the next subscribe
  const SubscribeResult answer =
      store_.subscribe({}, std::nullopt, CorrelatorLease{registry_.correlator_key(), by_, static_cast<std::int32_t>(kLease.count())});
  // Another worker may have scanned further: whoever holds the lease now,
  // the stored checkpoint is how far targets are known (App::close asks).
  checkpoint_ = std::max(checkpoint_, answer.correlated_at);
  if (!answer.correlating.value_or(false)) {
    lease_until_ = {};
    return false;
  }
  lease_until_ = now + kLease;
  return true;
}

CorrelateResult Correlator::scan(std::int32_t limit) {
  const std::lock_guard lock(mutex_);
  CorrelateResult result;
  const bool holding = registry_.has_dynamic() && hold_lease();
  result.checkpoint = checkpoint_;
  if (!holding) return result;
  result.scanned = true;

  Query query;
  query.after = checkpoint_;
  query.names = registry_.dynamic_names();
  query.limit = limit;
  std::map<std::string, SubscriptionSpec> targets;
  std::int64_t last_id = checkpoint_;
  // An upcaster or resolver that throws stops the scan at its event: the
  // events before it are routed and checkpointed, then the error is raised
  // (each pass meets it again until the code is fixed; nothing is skipped).
  std::exception_ptr failed;
  result.events = store_.query(query, [&](const Committed& stored) {
    if (failed) return;
    try {
      route_event(stored, targets);
    } catch (...) {
      failed = std::current_exception();
      return;
    }
    last_id = stored.id;
  });
  if (last_id != checkpoint_) store_targets(targets, last_id, result);
  if (failed) std::rethrow_exception(failed);
  return result;
}

void Correlator::route_event(const Committed& stored, std::map<std::string, SubscriptionSpec>& targets) const {
  // Resolvers see the version they are declared for; most events need no copy.
  std::optional<Committed> upcast;
  if (registry_.upcasts(stored.name)) registry_.upcast(upcast.emplace(stored));
  const Committed& event = upcast ? *upcast : stored;
  for (Route& route : registry_.resolve_dynamic(event)) {
    auto [entry, added] = targets.try_emplace(route.target);
    SubscriptionSpec& spec = entry->second;
    if (added) {
      spec = SubscriptionSpec{route.target, route.source, registry_.dynamic_names(), route.priority, route.lane, {}};
    } else {
      spec.priority = std::max(spec.priority, route.priority);
      spec.lane = route.lane;
    }
    if (marks(route, event)) spec.correlated_at = event.id;  // ids ascend: the last one wins
  }
}

void Correlator::store_targets(std::map<std::string, SubscriptionSpec>& targets, std::int64_t last_id,
                               CorrelateResult& result) {
  const auto now = std::chrono::steady_clock::now();
  if (now - subscribed_at_ < kStoreEvery && changes_nothing(targets)) {
    checkpoint_ = last_id;  // stored by the next subscribe
    result.checkpoint = checkpoint_;
    return;
  }

  std::vector<SubscriptionSpec> entries;
  entries.reserve(targets.size());
  for (auto& [target, spec] : targets) {
    if (spec.correlated_at) ++result.marked;
    entries.push_back(std::move(spec));
  }
  const SubscribeResult answer =
      store_.subscribe(entries, last_id, CorrelatorLease{registry_.correlator_key(), by_, static_cast<std::int32_t>(kLease.count())});
  lease_until_ = answer.correlating.value_or(false) ? now + kLease : std::chrono::steady_clock::time_point{};
  subscribed_at_ = now;
  remember(entries);
  checkpoint_ = last_id;
  result.subscribed = answer.subscribed;
  result.checkpoint = checkpoint_;
}

void Correlator::release() noexcept {
  const std::lock_guard lock(mutex_);
  if (lease_until_ == std::chrono::steady_clock::time_point{}) return;
  try {
    store_.subscribe({}, std::nullopt, CorrelatorLease{registry_.correlator_key(), by_, 0});
  } catch (...) {
    // The lease runs out by itself.
  }
  lease_until_ = {};
}

}  // namespace act::react
