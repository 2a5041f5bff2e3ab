#pragma once
// Loading a state: from the cache, else from the latest snapshot plus the
// events after it; or, for time travel, from the first event.
#include <string_view>

#include "act/app.hpp"
#include "act/detail/personal_data.hpp"
#include "act/detail/state_model.hpp"
#include "act/snapshot.hpp"
#include "app/counters.hpp"
#include "cache/state_cache.hpp"

namespace act::app_detail {

enum class SnapshotUse {
  kRestore,   // a snapshot replaces the state (one this state cannot restore throws inside the loader)
  kPassOver,  // a snapshot only moves the head
};

// Applies one event of the stream: a snapshot replaces the state, a known
// event runs its reducer (after its upcasters), anything else (a tombstone,
// an event this state does not reduce) only moves the head.
// A state with personal data folds the view `personal` of each event.
void fold(const detail::StateModel& model, detail::AnySnapshot& snapshot, const Committed& event,
          SnapshotUse use = SnapshotUse::kRestore, detail::Disclosure personal = detail::Disclosure::kRedacted);

// The state version a __snapshot__ was written under (meta.state_version; 1 when it has none).
std::int32_t snapshot_version(const Committed& snapshot);

// What a reader may see of a state's personal data (no reader: redacted).
detail::Disclosure disclosure_for(const detail::StateModel& model, const Actor* reader);

enum class CacheUse {
  kTrust,    // a hit is the answer (no database access)
  kCatchUp,  // a hit is brought up to date with the events after it
  kBypass,   // the store is read even when the cache has the stream
};

inline CacheUse cache_use(const LoadOptions& options) noexcept {
  return options.fresh ? CacheUse::kCatchUp : CacheUse::kTrust;
}

// A state with personal data is folded for reader and never cached.
detail::AnySnapshot load_current(Store& store, cache::StateCache& cache, Counters& counters,
                                 const detail::StateModel& model, std::string_view stream, CacheUse use,
                                 const Actor* reader = nullptr);

detail::AnySnapshot load_as_of(Store& store, const detail::StateModel& model, std::string_view stream,
                               const AsOf& as_of);

cache::Entry cache_entry(const detail::AnySnapshot& snapshot);

}  // namespace act::app_detail
