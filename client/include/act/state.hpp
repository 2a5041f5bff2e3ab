#pragma once
// Typed state definitions:
//
//   auto counter = act::state<Counter>("Counter")
//       .init([] { return Counter{}; })
//       .patch<Incremented>("Incremented", [](const Incremented& e, Counter s) { s.count += e.by; return s; })
//       .on<Increment>("increment")
//           .validate("by", [](const Increment& a) { return a.by > 0; }, "must be positive")
//           .given([](const Counter& s) { return s.count < 100; }, "count stays under 100")
//           .emit([](const Increment& a, const Counter&) { return act::events(Incremented{a.by}); })
//       .snap_every(50)
//       .build();
//
// Payload, event and state types convert with nlohmann::json (to_json /
// from_json). The builders only record lambdas into a detail::StateModel;
// the pipeline that runs them lives in the App.
#include <any>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeindex>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/autoclose.hpp"
#include "act/detail/event_versions.hpp"
#include "act/event_name.hpp"
#include "act/detail/payload.hpp"
#include "act/detail/state_model.hpp"
#include "act/errors.hpp"
#include "act/events.hpp"
#include "act/target.hpp"

namespace act {

// A built, immutable state definition; cheap to copy.
template <class S>
class State {
 public:
  using state_type = S;
  explicit State(std::shared_ptr<const detail::StateModel> model) : model_(std::move(model)) {}
  const std::string& name() const noexcept { return model_->name; }
  const detail::StateModel& model() const noexcept { return *model_; }
  const std::shared_ptr<const detail::StateModel>& shared_model() const noexcept { return model_; }

 private:
  std::shared_ptr<const detail::StateModel> model_;
};

template <class S>
class StateBuilder;

template <class S, class P>
class ActionBuilder {
 public:
  ActionBuilder(StateBuilder<S> owner, std::string name) : owner_(std::move(owner)) {
    action_.name = std::move(name);
  }

  // A rule the loaded state must satisfy before the action runs:
  // rule(const S&) or rule(const S&, const Actor&) returning bool.
  template <class F>
  ActionBuilder given(F rule, std::string description) && {
    detail::Invariant invariant{std::move(description), {}};
    invariant.holds = [rule = std::move(rule)](const std::any& state, const Actor& actor) {
      const S& current = std::any_cast<const S&>(state);
      if constexpr (std::is_invocable_r_v<bool, F&, const S&, const Actor&>) {
        return static_cast<bool>(rule(current, actor));
      } else {
        static_assert(std::is_invocable_r_v<bool, F&, const S&>, "given(): rule(const S&[, const Actor&]) -> bool");
        return static_cast<bool>(rule(current));
      }
    };
    action_.invariants.push_back(std::move(invariant));
    return std::move(*this);
  }

  // A check on the parsed payload; a false result is a ValidationError naming field.
  template <class F>
  ActionBuilder validate(std::string field, F check, std::string message) && {
    static_assert(std::is_invocable_r_v<bool, F&, const P&>, "validate(): check(const P&) -> bool");
    checks_.push_back(FieldCheck{std::move(field), std::move(message), std::move(check)});
    return std::move(*this);
  }

  // Retries on ConcurrencyError (reload, re-check, re-emit) up to max_retries times.
  ActionBuilder retries(int max_retries, Backoff backoff = {}) && {
    if (max_retries < 0) throw std::invalid_argument("retries(): max_retries must be 0 or more");
    action_.retry = RetryPolicy{max_retries, backoff};
    return std::move(*this);
  }

  // Finishes the action: handler(const P&, const S&[, const Target&]) returns
  // act::Events (possibly empty: nothing is committed) or one typed event.
  template <class F>
  StateBuilder<S> emit(F handler) && {
    action_.parse = [name = action_.name, checks = std::move(checks_)](const nlohmann::json& payload) {
      P parsed = detail::parse_payload<P>(payload, name);
      for (const FieldCheck& check : checks) {
        if (!check.passes(parsed)) throw ValidationError(name + ": " + check.field + " " + check.message, name, check.field);
      }
      return std::any(std::move(parsed));
    };
    using Returned = std::decay_t<typename std::conditional_t<std::is_invocable_v<F&, const P&, const S&, const Target&>,
                                                     std::invoke_result<F&, const P&, const S&, const Target&>,
                                                     std::invoke_result<F&, const P&, const S&>>::type>;
    if constexpr (!std::is_same_v<Returned, Events>) action_.emits = std::type_index(typeid(Returned));
    action_.emit = [handler = std::move(handler)](const std::any& payload, const std::any& state, const Target& target) {
      const P& action = std::any_cast<const P&>(payload);
      const S& current = std::any_cast<const S&>(state);
      if constexpr (std::is_invocable_v<F&, const P&, const S&, const Target&>) {
        return as_events(handler(action, current, target));
      } else {
        static_assert(std::is_invocable_v<F&, const P&, const S&>, "emit(): handler(const P&, const S&[, const Target&])");
        return as_events(handler(action, current));
      }
    };
    owner_.add_action(std::move(action_));
    return std::move(owner_);
  }

 private:
  struct FieldCheck {
    std::string field;
    std::string message;
    std::function<bool(const P&)> passes;
  };

  template <class R>
  static Events as_events(R&& result) {
    if constexpr (std::is_same_v<std::decay_t<R>, Events>) {
      return std::forward<R>(result);
    } else {
      return Events{}.add(result);
    }
  }

  StateBuilder<S> owner_;
  detail::ActionModel action_;
  std::vector<FieldCheck> checks_;
};

template <class S>
class StateBuilder {
 public:
  explicit StateBuilder(std::string name) : model_(std::make_shared<detail::StateModel>()) {
    if (name.empty()) throw std::invalid_argument("state(): the name must not be empty");
    model_->name = std::move(name);
    model_->state_type = typeid(S);
    if constexpr (std::is_default_constructible_v<S>) model_->init = [] { return std::any(S{}); };
    if constexpr (std::is_constructible_v<nlohmann::json, const S&>) {
      model_->serialize = [](const std::any& state) { return nlohmann::json(std::any_cast<const S&>(state)); };
    }
    if constexpr (detail::json_readable<S>) {
      model_->restore = [target = model_->name + "." + std::string(kSnapshotEvent)](const nlohmann::json& snapshot) {
        return std::any(detail::parse_payload<S>(snapshot, target));
      };
    }
  }

  // The state of a stream with no events; called on every cold load.
  template <class F>
  StateBuilder init(F make) && {
    static_assert(std::is_invocable_r_v<S, F&>, "init(): make() -> S");
    model_->init = [make = std::move(make)] { return std::any(S(make())); };
    return std::move(*this);
  }

  // Declares event E under its own name (act/event_name.hpp) with its reducer.
  template <named_event E, class F>
  StateBuilder patch(F reducer) && {
    return std::move(*this).template patch<E>(std::string(act::event_name<E>()), std::move(reducer));
  }

  // Declares event E under event_name with its reducer:
  // reducer(const E&, S[, const Committed&]) -> S.
  template <class E, class F>
  StateBuilder patch(std::string event_name, F reducer) && {
    if (event_name.empty() || event_name == kSnapshotEvent || event_name == kTombstoneEvent)
      throw std::invalid_argument("patch(): \"" + event_name + "\" is not a usable event name");
    if constexpr (named_event<E>) {
      if (event_name != act::event_name<E>())
        throw std::invalid_argument("patch(): " + model_->name + " declares " + event_name + " with a type named " +
                                    std::string(act::event_name<E>()));
    }
    if (model_->reducers.contains(event_name))
      throw std::invalid_argument("patch(): event " + event_name + " is declared twice in " + model_->name);
    const std::string target = model_->name + "." + event_name;
    detail::ReducerModel reducer_model;
    reducer_model.apply = [reducer = std::move(reducer), target](std::any& state, const Committed& event) {
      const E payload = detail::parse_payload<E>(event.data, target);
      S& current = std::any_cast<S&>(state);
      if constexpr (std::is_invocable_r_v<S, F&, const E&, S, const Committed&>) {
        current = reducer(payload, std::move(current), event);
      } else {
        static_assert(std::is_invocable_r_v<S, F&, const E&, S>, "patch(): reducer(const E&, S[, const Committed&]) -> S");
        current = reducer(payload, std::move(current));
      }
    };
    reducer_model.validate = [target](const nlohmann::json& data) { (void)detail::parse_payload<E>(data, target); };
    model_->reducers.emplace(event_name, std::move(reducer_model));
    model_->event_names.emplace(typeid(E), std::move(event_name));
    return std::move(*this);
  }

  // Declares how an event stored as from_name reads as its next version
  // to_name (a later "_vN" of the same base): convert(const From&) returns
  // the new payload (From and the result convert with nlohmann::json; by
  // default From is the stored JSON). Upcasters chain (Foo -> Foo_v2 ->
  // Foo_v3) and run on every read, before reducers, reaction handlers and
  // projections; the stored event is never rewritten.
  template <class From = nlohmann::json, class F>
  StateBuilder upcast(std::string from_name, std::string to_name, F convert) && {
    static_assert(std::is_invocable_v<F&, const From&>, "upcast(): convert(const From&) -> the new payload");
    if (from_name.empty() || to_name.empty()) throw std::invalid_argument("upcast(): event names must not be empty");
    if (model_->upcasts.contains(from_name))
      throw std::invalid_argument("upcast(): " + from_name + " is upcast twice in " + model_->name);
    const std::string target = model_->name + "." + from_name;
    detail::UpcastModel upcast_model{std::move(to_name), {}};
    upcast_model.convert = [convert = std::move(convert), target](const nlohmann::json& data) {
      if constexpr (std::is_same_v<From, nlohmann::json>) {
        return nlohmann::json(convert(data));
      } else {
        return nlohmann::json(convert(detail::parse_payload<From>(data, target)));
      }
    };
    model_->upcasts.emplace(std::move(from_name), std::move(upcast_model));
    return std::move(*this);
  }

  // Marks top-level fields of event_name as personal data: a commit moves
  // them into the event's pii sidecar (wiped by App::forget). Loads fold a
  // view: the values when discloses(actor) says the reader may see them,
  // "[REDACTED]" otherwise, "[SHREDDED]" once forgotten (so the event type
  // should read those fields as strings or JSON). Reaction handlers and
  // projections get the events with these fields removed unless they
  // disclose_pii(). Such a state is neither cached nor snapshotted.
  StateBuilder sensitive(std::string event_name, std::vector<std::string> fields) && {
    if (fields.empty()) throw std::invalid_argument("sensitive(): name at least one field of " + event_name);
    for (const std::string& field : fields)
      if (field.empty()) throw std::invalid_argument("sensitive(): a field name of " + event_name + " is empty");
    if (!model_->sensitive.emplace(event_name, std::move(fields)).second)
      throw std::invalid_argument("sensitive(): " + event_name + " is marked twice in " + model_->name);
    return std::move(*this);
  }

  // Who may read the state's personal data: may(const Actor&) -> bool.
  template <class F>
  StateBuilder discloses(F may) && {
    static_assert(std::is_invocable_r_v<bool, F&, const Actor&>, "discloses(): may(const Actor&) -> bool");
    model_->discloses = [may = std::move(may)](const Actor& actor) { return static_cast<bool>(may(actor)); };
    return std::move(*this);
  }

  // The version of the state's shape (1 by default). Raise it when S changes
  // in a way its from_json cannot read from an older snapshot: snapshots
  // record the version they were written under, and one of another version
  // is passed over (the stream is folded from its first event).
  StateBuilder version(std::int32_t shape) && {
    if (shape < 1) throw std::invalid_argument("version(): the state version must be 1 or more");
    model_->version = shape;
    return std::move(*this);
  }

  // Closes the state's streams by themselves (see act/autoclose.hpp): the
  // app adds a reaction on every event of the state whose handler retires
  // a stream when the policy holds, or trims it to policy.keep. Checked at build().
  StateBuilder autocloses(AutoclosePolicy policy) && {
    if (model_->autoclose) throw std::invalid_argument("autocloses(): state " + model_->name + " has a policy already");
    model_->autoclose = std::move(policy);
    return std::move(*this);
  }

  // Starts an action whose payload type is P.
  template <class P>
  ActionBuilder<S, P> on(std::string action_name) && {
    if (action_name.empty()) throw std::invalid_argument("on(): the action name must not be empty");
    if (model_->actions.contains(action_name))
      throw std::invalid_argument("on(): action " + action_name + " is declared twice in " + model_->name);
    return ActionBuilder<S, P>(std::move(*this), std::move(action_name));
  }

  // Commits a __snapshot__ after an action once `events` events have been
  // folded since the last one.
  StateBuilder snap_every(int events) && {
    if (events <= 0) throw std::invalid_argument("snap_every(): events must be positive");
    return std::move(*this).snap([events](const S&, const SnapStats& stats) { return stats.patches >= events; });
  }

  // Commits a __snapshot__ after an action when policy(const S&, const SnapStats&) says so.
  template <class F>
  StateBuilder snap(F policy) && {
    static_assert(std::is_constructible_v<nlohmann::json, const S&>, "snap(): the state needs to_json/from_json");
    static_assert(std::is_invocable_r_v<bool, F&, const S&, const SnapStats&>,
                  "snap(): policy(const S&, const SnapStats&) -> bool");
    model_->snap = [policy = std::move(policy)](const std::any& state, const SnapStats& stats) {
      return static_cast<bool>(policy(std::any_cast<const S&>(state), stats));
    };
    return std::move(*this);
  }

  // Also checks the event versions: upcasters lead to a declared event,
  // no two names are the same version of one event.
  State<S> build() && {
    if (!model_->init) throw std::invalid_argument("build(): state " + model_->name + " needs init()");
    detail::settle_event_versions(*model_);
    for (const auto& [action_name, action] : model_->actions) {
      if (action.emits && !model_->event_names.contains(*action.emits))
        throw std::invalid_argument("build(): action " + action_name + " of " + model_->name + " emits " +
                                    action.emits->name() + ", an event type the state does not declare (patch<E>)");
    }
    for (const auto& [event_name, fields] : model_->sensitive) {
      if (!model_->reducers.contains(event_name))
        throw std::invalid_argument("sensitive(): state " + model_->name + " does not declare event " + event_name);
    }
    if (model_->personal() && model_->snap)
      throw std::invalid_argument("build(): state " + model_->name +
                                  " holds personal data: a snapshot would copy it out of the pii sidecar");
    if (model_->autoclose) detail::check_autoclose(*model_);
    return State<S>(std::move(model_));
  }

 private:
  template <class, class>
  friend class ActionBuilder;

  void add_action(detail::ActionModel action) {
    std::string name = action.name;
    model_->actions.emplace(std::move(name), std::move(action));
  }

  std::shared_ptr<detail::StateModel> model_;
};

// Starts the definition of a state type S, named for snapshots and errors.
template <class S>
StateBuilder<S> state(std::string name) {
  return StateBuilder<S>(std::move(name));
}

}  // namespace act
