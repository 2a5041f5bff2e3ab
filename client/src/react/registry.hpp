#pragma once
// The reactions and projections of one app, classified once at build: which
// targets are fixed (subscribed at startup, marked by the database at
// commit), which events need correlate, which reactions deliver an event to
// a given target, and the lanes.
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "act/detail/event_versions.hpp"
#include "act/detail/personal_data.hpp"
#include "act/detail/reaction_model.hpp"
#include "act/subscriptions.hpp"

namespace act::react {

// An inline projection that a commit's events are for, if its source
// matches the stream: the database decides that for a pattern source (its
// regex engine, as at subscribe), the registry for the others.
struct InlineCandidate {
  const detail::ProjectionModel* projection = nullptr;
  std::optional<std::string> pattern;  // the source, when it is a pattern still to match
};

class Registry {
 public:
  // Throws std::invalid_argument for contradictions (see AppBuilder::build).
  // upcasts: the app's states' upcasters, by the name they read.
  Registry(std::vector<detail::ReactionModel> reactions,
           std::vector<std::shared_ptr<const detail::ProjectionModel>> projections, std::vector<Lane> lanes,
           detail::Upcasts upcasts = {}, detail::SensitiveFields sensitive = {});
  // It points into itself.
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // Nothing for the drain (inline projections are applied at commit).
  bool empty() const noexcept { return reactions_.empty() && projection_targets_.empty(); }
  bool reacts_to(std::string_view event_name) const { return reactive_names_.contains(event_name); }
  bool has_dynamic() const noexcept { return !dynamic_names_.empty(); }

  // Rewrites an event read from the store to the version handlers are
  // declared for (stored under an older name, it is selected by that name).
  void upcast(Committed& event) const { detail::upcast(upcasts_, event); }
  bool upcasts(std::string_view event_name) const { return upcasts_.contains(event_name); }
  // A handler's view of events with personal data, from the events as
  // stored: their sensitive fields in plaintext when it discloses them,
  // removed otherwise, then upcast (an upcaster sees the older shape's
  // fields, as loads do). Empty when no event of the app has any.
  std::vector<Committed> personal_view(const std::vector<Committed>& stored, bool discloses) const;
  bool has_personal_data() const noexcept { return !sensitive_.empty(); }
  // An inline projection's events as its handlers get them: upcast, and
  // with personal data as it may see it.
  std::vector<Committed> handed_to(const detail::ProjectionModel& projection, std::vector<Committed> events) const;
  // The stored names an inline projection reads: its handlers' and the older ones upcast to them.
  std::vector<std::string> names_read_by(const detail::ProjectionModel& projection) const;

  // One row per fixed target, registered at startup.
  const std::vector<SubscriptionSpec>& static_subscriptions() const noexcept { return static_subscriptions_; }
  // A fixed target's name in the app's earlier version (Route::renamed_from), if it declares one.
  std::optional<std::string> former_name(std::string_view target) const;
  // The event names correlate reads, and dynamic targets are subscribed with.
  const std::vector<std::string>& dynamic_names() const noexcept { return dynamic_names_; }
  // The event names a target's fetch reads.
  std::vector<std::string> fetch_names(std::string_view target) const;
  // True when the target's subscription row is sure to select every event
  // its fetch reads, so the events act.claim_events hands over, narrowed to
  // fetch_names, are the fetch's: a projection, or a fixed target whose
  // names hold every dynamic reaction's (its row was made with them, or made
  // earlier and widened to them: Reactor::reconcile_existing). A dynamic target's
  // row keeps the names it was first made with, which may be fewer.
  bool row_covers_fetch(std::string_view target) const;

  // The drained projection of a target (never an inline one).
  const detail::ProjectionModel* projection_for(std::string_view target) const;
  // The inline projections that handle any of event_names on stream, ordered by target.
  std::vector<InlineCandidate> inline_candidates(std::string_view stream,
                                                 const std::vector<std::string>& event_names) const;
  bool has_inline() const noexcept { return !inline_projections_.empty(); }
  // Every projection, inline ones included.
  const std::vector<std::shared_ptr<const detail::ProjectionModel>>& projections() const noexcept {
    return projections_;
  }
  // The reactions that deliver event to target, in registration order.
  std::vector<const detail::ReactionModel*> reactions_for(const Committed& event, std::string_view target) const;
  // Where the dynamic reactions of event.name deliver it.
  std::vector<Route> resolve_dynamic(const Committed& event) const;

  const std::map<std::string, Lane, std::less<>>& lanes() const noexcept { return lanes_; }
  // True when this app may have work in the lane: a fixed route or a drained
  // projection is in it, or a dynamic reaction may route there (any declared
  // lane). Lanes without are never claimed: their rows belong to other apps.
  bool claims_lane(std::string_view lane) const;
  // False when a claimed target is surely another app's: no fixed route or
  // projection of this app has it, and no dynamic reaction reads any of its
  // claimed events' names (none claimed: it may be ours). Such a target is
  // left as it was found, never acknowledged past events nothing here handled.
  bool may_own(std::string_view target, const std::vector<Committed>& claimed) const;
  // False when a subscription row is surely not this app's: no fixed route
  // or projection has its target, and no dynamic reaction reads any name it
  // selects (a row selecting every name may be a dynamic target's).
  bool may_own_row(const Subscription& row) const;
  // Names the correlator lease: apps with the same dynamic reactions share one scan.
  const std::string& correlator_key() const noexcept { return correlator_key_; }

 private:
  void add_static(const Route& route, const std::string& event_name, const std::string& owner);
  // event_name and the older names upcast to it: what a handler of it reads.
  std::vector<std::string> read_names(const std::string& event_name, const std::string& owner) const;

  detail::Upcasts upcasts_;
  detail::SensitiveFields sensitive_;
  std::vector<detail::ReactionModel> reactions_;
  std::multimap<std::string, const detail::ReactionModel*, std::less<>> by_event_;
  std::vector<std::shared_ptr<const detail::ProjectionModel>> projections_;
  std::map<std::string, const detail::ProjectionModel*, std::less<>> projection_targets_;
  std::map<std::string, const detail::ProjectionModel*, std::less<>> inline_projections_;  // by target
  std::set<std::string, std::less<>> reactive_names_;
  std::vector<std::string> dynamic_names_;
  std::map<std::string, std::set<std::string>, std::less<>> static_names_;  // target -> event names
  std::vector<SubscriptionSpec> static_subscriptions_;
  std::map<std::string, std::string, std::less<>> former_names_;  // target -> its name in the earlier version
  std::map<std::string, Lane, std::less<>> lanes_;
  std::set<std::string, std::less<>> routed_lanes_;  // of fixed routes and drained projections
  std::string correlator_key_;
};

}  // namespace act::react
