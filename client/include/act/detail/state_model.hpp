#pragma once
// The type-erased form of a state definition. The builders in act/state.hpp
// fill it with typed lambdas; the application pipeline (src/app) runs on it
// without knowing the state's C++ type.
#include <any>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <typeindex>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/autoclose.hpp"
#include "act/detail/personal_data.hpp"
#include "act/event.hpp"
#include "act/events.hpp"
#include "act/target.hpp"

namespace act {

// Where a state stands after a commit; snapshot policies decide on it.
struct SnapStats {
  std::int32_t version = -1;
  std::int64_t id = -1;
  std::int32_t patches = 0;  // events since the last snapshot
  std::int32_t snaps = 0;
};

// Exponential delay between retries: base * 2^attempt, capped at max,
// scaled by a random factor in [0.5, 1.5) with jitter (so racing writers spread out).
struct Backoff {
  std::chrono::milliseconds base{0};
  std::chrono::milliseconds max{1000};
  bool jitter = true;
};

struct RetryPolicy {
  int max_retries = 0;
  Backoff backoff;
};

namespace detail {

struct Invariant {
  std::string description;
  std::function<bool(const std::any& state, const Actor& actor)> holds;
};

struct ActionModel {
  std::string name;
  // Validates and normalises a payload into the action's type (ValidationError).
  std::function<std::any(const nlohmann::json& payload)> parse;
  std::vector<Invariant> invariants;
  std::function<Events(const std::any& payload, const std::any& state, const Target& target)> emit;
  RetryPolicy retry;
  // The event type an emit handler returns when it returns one typed event
  // (checked at build: the state must declare it); none for act::Events.
  std::optional<std::type_index> emits;
};

struct ReducerModel {
  std::function<void(std::any& state, const Committed& event)> apply;
  // Checks that data converts to the event's type (ValidationError).
  std::function<void(const nlohmann::json& data)> validate;
};

// How an event stored under an older name becomes its next version.
struct UpcastModel {
  std::string to;
  std::function<nlohmann::json(const nlohmann::json& data)> convert;
};

// Upcasters by the name they read: chains run until a name has none.
using Upcasts = std::map<std::string, UpcastModel, std::less<>>;

struct StateModel {
  std::string name;
  // The shape of the state: a snapshot written under another version is
  // not restored (the stream is folded from its first event instead).
  std::int32_t version = 1;
  std::type_index state_type = typeid(void);
  std::function<std::any()> init;
  std::function<nlohmann::json(const std::any& state)> serialize;
  std::function<std::any(const nlohmann::json& snapshot)> restore;
  std::map<std::string, ReducerModel, std::less<>> reducers;
  std::map<std::type_index, std::string> event_names;
  std::map<std::string, ActionModel, std::less<>> actions;
  std::function<bool(const std::any& state, const SnapStats& stats)> snap;  // empty: never
  Upcasts upcasts;
  // Event names a newer version of the same base replaces (Foo by Foo_v2):
  // their reducers stay for history, actions may not emit them. Set by build().
  std::map<std::string, std::string, std::less<>> deprecated;  // name -> current name
  // Personal data: its events' sensitive fields, and who may read them.
  // A state with any folds what its reader may see, so it is never cached
  // or snapshotted (either would keep one reader's view for another).
  SensitiveFields sensitive;
  std::function<bool(const Actor& actor)> discloses;  // empty: nobody
  std::optional<AutoclosePolicy> autoclose;  // none: its streams close only by App::close
  bool personal() const noexcept { return !sensitive.empty(); }
};

}  // namespace detail
}  // namespace act
