#pragma once
// Who acts on which stream.
#include <cstdint>
#include <optional>
#include <string>

namespace act {

struct Actor {
  std::string id;
  std::string name;
};

// The stream an action runs against. expected_version pins optimistic
// concurrency: the action fails with ConcurrencyError (never retried) unless
// the stream's head is exactly that version (-1: the stream must not exist).
struct Target {
  std::string stream;
  Actor actor;
  std::optional<std::int32_t> expected_version{};
};

}  // namespace act
