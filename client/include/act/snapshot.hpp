#pragma once
// A folded state and where in its stream it stands.
#include <any>
#include <cstdint>
#include <optional>
#include <utility>

#include "act/event.hpp"

namespace act {

template <class S>
struct Snapshot {
  S state{};
  std::optional<Committed> event;  // the last event read by this load (none on a cache hit)
  std::int32_t version = -1;       // the stream's head as folded; -1: no events
  std::int64_t id = -1;            // global id of that head event
  std::int32_t patches = 0;        // events folded since the last __snapshot__
  std::int32_t snaps = 0;          // __snapshot__ events seen
  bool cache_hit = false;          // started from the cache (never for time travel)
  std::int32_t replayed = 0;       // events this load read from the store
};

// How a load treats the process's state cache.
struct LoadOptions {
  // Also read what the store has past the cached position (one read of the
  // stream after the cached event's id): commits made by other processes are
  // folded in. Without it a cache hit is the answer, with no database access.
  bool fresh = false;
};

namespace detail {
using AnySnapshot = Snapshot<std::any>;

template <class S>
Snapshot<S> typed(AnySnapshot&& any) {
  return Snapshot<S>{std::any_cast<S>(std::move(any.state)), std::move(any.event), any.version, any.id,
                     any.patches,                            any.snaps,            any.cache_hit, any.replayed};
}
}  // namespace detail

}  // namespace act
