#include "react/registry.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace act::react {
namespace {

// A stable 64-bit FNV-1a digest, printed as hex: a name, not a secret.
std::string digest(const std::vector<std::string>& parts) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const std::string& part : parts) {
    for (const char c : part + '\x1f') {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ULL;
    }
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (int shift = 60; shift >= 0; shift -= 4) text.push_back(kHex[(hash >> shift) & 0xF]);
  return text;
}

}  // namespace

Registry::Registry(std::vector<detail::ReactionModel> reactions,
                   std::vector<std::shared_ptr<const detail::ProjectionModel>> projections, std::vector<Lane> lanes,
                   detail::Upcasts upcasts, detail::SensitiveFields sensitive)
    : upcasts_(std::move(upcasts)), sensitive_(std::move(sensitive)), reactions_(std::move(reactions)), projections_(std::move(projections)) {
  lanes_.emplace(std::string(kDefaultLane), Lane{std::string(kDefaultLane)});
  for (Lane& lane : lanes) {
    if (lane.name.empty()) throw std::invalid_argument("lane(): the name must not be empty");
    if (lane.lease.count() <= 0 || lane.streams <= 0 || lane.events <= 0 || lane.cycle.count() <= 0 ||
        lane.threads <= 0 || lane.bytes <= 0)
      throw std::invalid_argument("lane " + lane.name +
                                  ": lease, streams, events, cycle, threads and bytes must be positive");
    lanes_.insert_or_assign(lane.name, std::move(lane));
  }
  const auto check_lane = [&](const std::string& lane, const std::string& owner) {
    if (!lanes_.contains(lane)) throw std::invalid_argument(owner + " uses lane " + lane + ", which is not declared");
  };

  std::set<std::pair<std::string, std::string>> names_seen;
  std::vector<std::string> dynamic_parts;
  std::set<std::string> dynamic_names;
  for (const detail::ReactionModel& reaction : reactions_) {
    const std::string owner = "reaction " + reaction.name + " on " + reaction.event;
    if (!names_seen.emplace(reaction.event, reaction.name).second)
      throw std::invalid_argument(owner + " is declared twice");
    by_event_.emplace(reaction.event, &reaction);
    const std::vector<std::string> read = read_names(reaction.event, owner);
    reactive_names_.insert(read.begin(), read.end());
    if (reaction.is_static()) {
      check_lane(reaction.route->lane, owner);
      for (const std::string& name : read) add_static(*reaction.route, name, owner);
    } else {
      dynamic_names.insert(read.begin(), read.end());
      dynamic_parts.push_back(reaction.event + "/" + reaction.name);
    }
  }
  for (const auto& projection : projections_) {
    const std::string owner = "projection " + projection->route.target;
    check_lane(projection->route.lane, owner);
    if (projection_targets_.contains(projection->route.target) || static_names_.contains(projection->route.target) ||
        inline_projections_.contains(projection->route.target))
      throw std::invalid_argument(owner + ": its target is served by another reaction or projection");
    if (projection->run_inline) {
      for (const auto& [event_name, handler] : projection->handlers) (void)read_names(event_name, owner);
      // No subscription row: do_action applies it (inline_commit.cpp).
      inline_projections_.emplace(projection->route.target, projection.get());
      continue;
    }
    for (const auto& [event_name, handler] : projection->handlers) {
      for (const std::string& name : read_names(event_name, owner)) {
        add_static(projection->route, name, owner);
        reactive_names_.insert(name);
      }
    }
    projection_targets_.emplace(projection->route.target, projection.get());
  }
  for (const auto& [target, projection] : projection_targets_) {
    (void)projection;
    if (std::any_of(reactions_.begin(), reactions_.end(), [&](const detail::ReactionModel& reaction) {
          return reaction.is_static() && reaction.route->target == target;
        }))
      throw std::invalid_argument("projection " + target + ": its target is also a reaction's target");
  }
  for (const auto& [target, former] : former_names_) {
    if (static_names_.contains(former))
      throw std::invalid_argument("target " + target + " is renamed from " + former +
                                  ", which this app still routes to: a target has one row");
  }
  for (SubscriptionSpec& spec : static_subscriptions_) {
    routed_lanes_.insert(spec.lane);
    const auto& names = static_names_.at(spec.stream);
    spec.names = std::vector<std::string>(names.begin(), names.end());
  }
  dynamic_names_.assign(dynamic_names.begin(), dynamic_names.end());
  std::sort(dynamic_parts.begin(), dynamic_parts.end());
  correlator_key_ = "reactions-" + digest(dynamic_parts);
}

void Registry::add_static(const Route& route, const std::string& event_name, const std::string& owner) {
  const auto existing = std::find_if(static_subscriptions_.begin(), static_subscriptions_.end(),
                                     [&](const SubscriptionSpec& spec) { return spec.stream == route.target; });
  if (existing == static_subscriptions_.end()) {
    static_subscriptions_.push_back(SubscriptionSpec{route.target, route.source, std::nullopt, route.priority, route.lane, {}});
  } else {
    if (existing->source != route.source)
      throw std::invalid_argument(owner + ": target " + route.target + " is routed with two different sources");
    if (existing->lane != route.lane)
      throw std::invalid_argument(owner + ": target " + route.target + " is routed to two different lanes");
    existing->priority = std::max(existing->priority, route.priority);
  }
  static_names_[route.target].insert(event_name);
  if (route.renamed_from) {
    if (*route.renamed_from == route.target)
      throw std::invalid_argument(owner + ": target " + route.target + " is renamed from itself");
    const auto [former, added] = former_names_.emplace(route.target, *route.renamed_from);
    if (!added && former->second != *route.renamed_from)
      throw std::invalid_argument(owner + ": target " + route.target + " is renamed from both " + former->second +
                                  " and " + *route.renamed_from);
  }
}

std::optional<std::string> Registry::former_name(std::string_view target) const {
  const auto found = former_names_.find(target);
  if (found == former_names_.end()) return std::nullopt;
  return found->second;
}

std::vector<std::string> Registry::read_names(const std::string& event_name, const std::string& owner) const {
  if (const auto upcast = upcasts_.find(event_name); upcast != upcasts_.end()) {
    throw std::invalid_argument(owner + ": " + event_name + " is upcast to " + upcast->second.to +
                                " before handlers run, so no handler of it would be called: handle " + upcast->second.to);
  }
  std::vector<std::string> names{event_name};
  for (const auto& [older, step] : upcasts_) {
    if (detail::newest_name(upcasts_, older) == event_name) names.push_back(older);
  }
  return names;
}

std::vector<Committed> Registry::personal_view(const std::vector<Committed>& events, bool discloses) const {
  std::vector<Committed> views;
  if (sensitive_.empty()) return views;
  views.reserve(events.size());
  const detail::Disclosure how = discloses ? detail::Disclosure::kPlaintext : detail::Disclosure::kStripped;
  for (const Committed& event : events) {
    views.push_back(detail::view_of(event, sensitive_, how));
    // An upcaster may put a field back (a default) that the newer name marks.
    if (upcasts(event.name)) {
      upcast(views.back());
      if (!discloses) views.back() = detail::view_of(views.back(), sensitive_, how);
    }
  }
  return views;
}

std::vector<Committed> Registry::handed_to(const detail::ProjectionModel& projection, std::vector<Committed> events) const {
  std::vector<Committed> view = personal_view(events, projection.discloses_pii);
  if (!view.empty()) return view;
  for (Committed& event : events) upcast(event);
  return events;
}

std::vector<std::string> Registry::names_read_by(const detail::ProjectionModel& projection) const {
  std::set<std::string> names;
  for (const auto& [event_name, handler] : projection.handlers) {
    const std::vector<std::string> read = read_names(event_name, "projection " + projection.route.target);
    names.insert(read.begin(), read.end());
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> Registry::fetch_names(std::string_view target) const {
  if (projection_for(target)) {
    const auto fixed = static_names_.find(target);  // its handlers' names and the older ones
    if (fixed == static_names_.end()) return {};
    return {fixed->second.begin(), fixed->second.end()};
  }
  // A dynamic route may lead to any target, a fixed one included.
  std::set<std::string> names(dynamic_names_.begin(), dynamic_names_.end());
  if (const auto fixed = static_names_.find(target); fixed != static_names_.end())
    names.insert(fixed->second.begin(), fixed->second.end());
  return {names.begin(), names.end()};
}

bool Registry::row_covers_fetch(std::string_view target) const {
  if (projection_for(target)) return true;
  const auto fixed = static_names_.find(target);
  if (fixed == static_names_.end()) return false;
  return std::all_of(dynamic_names_.begin(), dynamic_names_.end(),
                     [&](const std::string& name) { return fixed->second.contains(name); });
}

bool Registry::claims_lane(std::string_view lane) const {
  return routed_lanes_.contains(lane) || (has_dynamic() && lanes_.contains(lane));
}

bool Registry::may_own(std::string_view target, const std::vector<Committed>& claimed) const {
  if (static_names_.contains(target)) return true;  // a fixed route's or a projection's
  if (!has_dynamic()) return false;
  if (claimed.empty()) return true;
  return std::any_of(claimed.begin(), claimed.end(), [&](const Committed& event) {
    return std::find(dynamic_names_.begin(), dynamic_names_.end(), event.name) != dynamic_names_.end();
  });
}

bool Registry::may_own_row(const Subscription& row) const {
  if (static_names_.contains(row.stream)) return true;
  if (!has_dynamic()) return false;
  if (!row.names) return true;
  return std::any_of(row.names->begin(), row.names->end(), [&](const std::string& name) {
    return std::find(dynamic_names_.begin(), dynamic_names_.end(), name) != dynamic_names_.end();
  });
}

const detail::ProjectionModel* Registry::projection_for(std::string_view target) const {
  const auto found = projection_targets_.find(target);
  return found == projection_targets_.end() ? nullptr : found->second;
}

std::vector<InlineCandidate> Registry::inline_candidates(std::string_view stream,
                                                         const std::vector<std::string>& event_names) const {
  std::vector<InlineCandidate> candidates;
  for (const auto& [target, projection] : inline_projections_) {
    const bool handles = std::any_of(event_names.begin(), event_names.end(),
                                     [&](const std::string& name) { return projection->handlers.contains(name); });
    if (!handles) continue;
    const std::optional<std::string>& source = projection->route.source;
    if (!source) {
      candidates.push_back(InlineCandidate{projection, std::nullopt});
    } else if (is_pattern(*source)) {
      candidates.push_back(InlineCandidate{projection, source});
    } else if (*source == stream) {
      candidates.push_back(InlineCandidate{projection, std::nullopt});
    }
  }
  return candidates;
}

std::vector<const detail::ReactionModel*> Registry::reactions_for(const Committed& event,
                                                                   std::string_view target) const {
  std::vector<const detail::ReactionModel*> matching;
  const auto [first, last] = by_event_.equal_range(event.name);
  for (auto entry = first; entry != last; ++entry) {
    const detail::ReactionModel* reaction = entry->second;
    if (reaction->is_static()) {
      if (reaction->route->target == target) matching.push_back(reaction);
    } else if (const std::optional<Route> route = reaction->resolve(event); route && route->target == target) {
      matching.push_back(reaction);
    }
  }
  return matching;
}

std::vector<Route> Registry::resolve_dynamic(const Committed& event) const {
  std::vector<Route> routes;
  const auto [first, last] = by_event_.equal_range(event.name);
  for (auto entry = first; entry != last; ++entry) {
    if (entry->second->is_static()) continue;
    if (std::optional<Route> route = entry->second->resolve(event)) routes.push_back(std::move(*route));
  }
  return routes;
}

}  // namespace act::react
