// Autoclose: the policy checks at build, and the handler that judges a
// stream's head and closes it.
#include "app/autoclose.hpp"

#include <algorithm>
#include <stdexcept>

#include "act/detail/event_versions.hpp"
#include "act/reaction.hpp"
#include "react/app_port.hpp"
#include "react/dispatch.hpp"

namespace act {

namespace app_detail {
// A ReactionContext knows the app it runs in; autoclose closes through it.
struct ContextAccess {
  static react::AppPort& app(ReactionContext& context) noexcept { return context.app_; }
};
}  // namespace app_detail

namespace {

using std::chrono::days;
using std::chrono::minutes;

// A close skipped because a reaction still has work in the stream is tried again this much later.
constexpr minutes kRetrySkipped{1};

void check_conditions(const detail::StateModel& state, const AutocloseWhen& when, const char* group) {
  const std::string where = "autocloses(): state " + state.name + ", " + group + ": ";
  for (const std::string& name : when.is) {
    if (!state.reducers.contains(name)) throw std::invalid_argument(where + "is names " + name + ", which the state does not declare");
    if (const auto replaced = state.deprecated.find(name); replaced != state.deprecated.end())
      throw std::invalid_argument(where + "is names " + name + ", replaced by " + replaced->second);
  }
  if (when.after && *when.after < minutes(1)) throw std::invalid_argument(where + "after must be 1 minute or more");
  if (when.reaches && *when.reaches < 1) throw std::invalid_argument(where + "reaches must be 1 or more");
}

// The window's next opening when `now` is outside it.
std::optional<Timestamp> closed_until(const AutocloseWindow& window, Timestamp now) {
  const auto midnight = std::chrono::floor<days>(now);
  const auto hour = std::chrono::duration_cast<std::chrono::hours>(now - midnight).count();
  const bool inside = window.start_hour < window.end_hour ? hour >= window.start_hour && hour < window.end_hour
                                                          : hour >= window.start_hour || hour < window.end_hour;
  if (inside) return std::nullopt;
  Timestamp opening = midnight + std::chrono::hours(window.start_hour);
  if (opening <= now) opening += days(1);
  return opening;
}

struct Head {
  const StreamStats& stats;
  std::string name;  // the last event's name as the state declares it (upcast)
  Timestamp now;
};

// Each condition set in `when`, judged on the head.
std::vector<bool> judged(const AutocloseWhen& when, const Head& head) {
  std::vector<bool> results;
  if (!when.is.empty()) results.push_back(std::find(when.is.begin(), when.is.end(), head.name) != when.is.end());
  if (when.after) results.push_back(head.stats.head.created + *when.after <= head.now);
  if (when.reaches) results.push_back(head.stats.count.value_or(0) >= *when.reaches);
  return results;
}

bool retires(const AutoclosePolicy& policy, const Head& head) {
  const std::vector<bool> all = judged(policy.all, head);
  const std::vector<bool> any = judged(policy.any, head);
  const auto yes = [](bool result) { return result; };
  return (!all.empty() && std::all_of(all.begin(), all.end(), yes)) || std::any_of(any.begin(), any.end(), yes);
}

// keep's window has events older than it: a trim is due.
bool trims(const AutoclosePolicy& policy, const Head& head) {
  return policy.keep && head.stats.tail && head.stats.tail->created < head.now - *policy.keep;
}

// The earliest time ahead at which the policy may hold with no new event:
// an `after` coming due (in `all`, only once the rest of `all` holds), or
// the oldest event leaving the window.
std::optional<Timestamp> next_due(const AutoclosePolicy& policy, const Head& head) {
  std::vector<Timestamp> dues;
  if (policy.any.after) dues.push_back(head.stats.head.created + *policy.any.after);
  if (policy.all.after) {
    AutocloseWhen rest = policy.all;
    rest.after.reset();
    const std::vector<bool> others = judged(rest, head);
    if (std::all_of(others.begin(), others.end(), [](bool result) { return result; }))
      dues.push_back(head.stats.head.created + *policy.all.after);
  }
  if (policy.keep && head.stats.tail) dues.push_back(head.stats.tail->created + *policy.keep);
  std::optional<Timestamp> due;
  for (const Timestamp candidate : dues) {
    if (candidate > head.now && (!due || candidate < *due)) due = candidate;
  }
  return due;
}

void autoclose(const detail::StateModel& state, const Committed& event, ReactionContext& context) {
  const AutoclosePolicy& policy = *state.autoclose;
  react::AppPort& app = app_detail::ContextAccess::app(context);
  const Timestamp now = app.now();
  if (const std::optional<AutocloseWindow>& window = app.autoclose_window()) {
    if (const std::optional<Timestamp> opening = closed_until(*window, now)) context.defer_until(*opening);
  }
  const std::vector<StreamStats> found = app.store().query_stats(app_detail::autoclose_heads(state, {event.stream}));
  if (found.empty()) return;  // closed already: a tombstone (or a seed) is all there is
  const Head head{found.front(), detail::newest_name(state.upcasts, found.front().head.name), now};

  if (retires(policy, head)) {
    const CloseResult closed = app.close({CloseTarget{event.stream, false, policy.archive, std::nullopt}});
    if (closed.truncated.contains(event.stream)) throw react::ClosedThrough{head.stats.head.id};
    context.defer_until(now + kRetrySkipped);  // a reaction still has work in it, or a commit landed meanwhile
  }
  if (trims(policy, head)) {
    const CloseResult trimmed = app.close({CloseTarget{event.stream, false, policy.archive, now - *policy.keep}});
    // Events below the boundary snapshot are gone: none is left to hand over.
    if (const auto boundary = trimmed.truncated.find(event.stream); boundary != trimmed.truncated.end())
      throw react::ClosedThrough{boundary->second.id};
  }
  if (const std::optional<Timestamp> due = next_due(policy, head)) context.defer_until(*due);
}

}  // namespace

void detail::check_autoclose(const StateModel& state) {
  const AutoclosePolicy& policy = *state.autoclose;
  if (policy.all.empty() && policy.any.empty() && !policy.keep)
    throw std::invalid_argument("autocloses(): state " + state.name + " has an empty policy");
  check_conditions(state, policy.all, "all");
  check_conditions(state, policy.any, "any");
  if (policy.keep) {
    if (*policy.keep < days(1)) throw std::invalid_argument("autocloses(): state " + state.name + ", keep must be 1 day or more");
    if (!state.snap)
      throw std::invalid_argument("autocloses(): state " + state.name + " keeps a window, which needs snap(): snapshots bound it");
  }
}

StatsQuery app_detail::autoclose_heads(const detail::StateModel& state, std::vector<std::string> streams) {
  StatsQuery query;
  query.streams = std::move(streams);
  query.count = true;
  query.tail = state.autoclose->keep.has_value();
  query.exclude = {std::string(kSnapshotEvent), std::string(kTombstoneEvent)};
  return query;
}

app_detail::CloseDue app_detail::close_due(const detail::StateModel& state, const StreamStats& stats, Timestamp now) {
  const Head head{stats, detail::newest_name(state.upcasts, stats.head.name), now};
  if (retires(*state.autoclose, head)) return CloseDue::kRetire;
  return trims(*state.autoclose, head) ? CloseDue::kTrim : CloseDue::kNone;
}

std::vector<detail::ReactionModel> app_detail::autoclose_reactions(
    const std::vector<std::shared_ptr<const detail::StateModel>>& states) {
  std::vector<detail::ReactionModel> reactions;
  for (const auto& state : states) {
    if (!state->autoclose) continue;
    for (const auto& [event_name, reducer] : state->reducers) {
      if (state->deprecated.contains(event_name)) continue;  // no longer written
      detail::ReactionModel reaction;
      reaction.event = event_name;
      reaction.name = "__autoclose_" + state->name;
      reaction.resolve = [](const Committed& event) {
        return std::optional<Route>(Route{std::string(kAutoclosePrefix) + event.stream, event.stream});
      };
      reaction.options = ReactionOptions{3, false, std::nullopt};
      reaction.handle = [state](const Committed& event, ReactionContext& context) { autoclose(*state, event, context); };
      reactions.push_back(std::move(reaction));
    }
  }
  return reactions;
}

}  // namespace act
