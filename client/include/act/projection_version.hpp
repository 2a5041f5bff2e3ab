#pragma once
// Projection versions (docs/reactions.md, "A new projection version"): a
// later version of a projection builds beside the current one, in its own
// schema and through its own subscription, and becomes current in one
// transaction that moves the views the application reads through.
#include <cstdint>
#include <string>
#include <string_view>

namespace act {

// A version's subscription: the projection's name for version 1 (as before
// versions existed), "NAME@vN" for a later one.
std::string projection_version_target(std::string_view name, std::int32_t version);
// The schema a later version builds in: the reading schema's name with "_vN".
std::string projection_version_schema(std::string_view name, std::int32_t version);
// The schema the application reads a versioned projection through: a view
// per relation of the current version. The name's letters and digits,
// lower case, with "_" for anything else.
std::string projection_reading_schema(std::string_view name);

// How far a version is behind the live position.
struct ProjectionLag {
  std::string name;
  std::int32_t version = 1;
  std::int64_t at = 0;      // the last event it applied (summed over a partition set's partitions)
  std::int64_t live = 0;    // the last event it reads that is committed (its work mark; summed likewise)
  std::int64_t events = 0;  // events it reads above `at` up to the horizon: what it still has to apply
  bool current = false;     // the version the reading schema shows
};

struct SwitchOptions {
  // Switch only when the version has at most this many events still to
  // apply; it is drained on the calling thread first.
  std::int64_t max_lag = 0;
  // Drain-then-try rounds before giving up (commits keep arriving meanwhile).
  std::int32_t attempts = 20;
};

struct SwitchResult {
  bool switched = false;
  std::int32_t from = 1;  // the version that was current
  std::int32_t to = 1;
  // The events the version had still to apply when the switch committed
  // (when it did not: when it last tried), summed over the partitions.
  std::int64_t lag = 0;
  std::int64_t side_effects_run = 0;  // side effects the switch ran itself (see App::switch_projection)
};

}  // namespace act
