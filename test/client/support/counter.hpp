#pragma once
// The counter domain the app tests run on.
#include <cstdint>
#include <functional>
#include <optional>

#include <nlohmann/json.hpp>

#include "act/act.hpp"

namespace act::test {

struct Counter {
  int count = 0;
  int changes = 0;
};
struct Incremented {
  int by = 0;
};
struct Decremented {
  int by = 0;
};
struct Increment {
  int by = 0;
};
struct Decrement {
  int by = 0;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Counter, count, changes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Incremented, by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Decremented, by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Increment, by)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Decrement, by)

struct CounterOptions {
  int retries = 0;
  int snap_every = 0;  // 0: no snapshots
  std::function<bool(const Counter&, const SnapStats&)> snap{};  // instead of snap_every
  std::int32_t version = 1;
  std::optional<AutoclosePolicy> autoclose{};
};

// Actions: "increment" (by > 0), "increment_twice" (two events),
// "decrement" (given: the count stays at 0 or more), "touch" (emits nothing).
State<Counter> counter_state(CounterOptions options = {});

}  // namespace act::test
