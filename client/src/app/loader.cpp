#include "app/loader.hpp"

#include <stdexcept>

namespace act::app_detail {

void fold(const detail::StateModel& model, detail::AnySnapshot& snapshot, const Committed& event) {
  if (event.name == kSnapshotEvent) {
    if (!model.restore) throw std::logic_error("state " + model.name + " met a snapshot but has no from_json to read it");
    snapshot.state = model.restore(event.data);
    ++snapshot.snaps;
    snapshot.patches = 0;
  } else if (const auto reducer = model.reducers.find(event.name); reducer != model.reducers.end()) {
    reducer->second.apply(snapshot.state, event);
    ++snapshot.patches;
  }
  snapshot.version = event.version;
  snapshot.id = event.id;
  snapshot.event = event;
}

namespace {

// Folds what query reads onto the initial state.
detail::AnySnapshot replay(Store& store, const detail::StateModel& model, const Query& query) {
  detail::AnySnapshot snapshot;
  snapshot.state = model.init();
  store.query(query, [&](const Committed& event) {
    fold(model, snapshot, event);
    ++snapshot.replayed;
  });
  return snapshot;
}

}  // namespace

cache::Entry cache_entry(const detail::AnySnapshot& snapshot) {
  return cache::Entry{snapshot.state, snapshot.version, snapshot.id, snapshot.patches, snapshot.snaps};
}

namespace {

// A closed stream is not cached: every action on it must see the tombstone.
void remember(cache::StateCache& cache, std::string_view stream, const detail::AnySnapshot& snapshot) {
  if (snapshot.event && snapshot.event->name == kTombstoneEvent) {
    cache.drop(stream);
  } else {
    cache.put(stream, cache_entry(snapshot));
  }
}

}  // namespace

detail::AnySnapshot load_current(Store& store, cache::StateCache& cache, Counters& counters,
                                 const detail::StateModel& model, std::string_view stream, CacheUse use) {
  if (use != CacheUse::kBypass) {
    // An entry made by another state type for the same stream name is no use here.
    if (auto hit = cache.get(stream); hit && hit->state.type() == model.state_type) {
      Counters::bump(counters.cache_hits);
      detail::AnySnapshot snapshot;
      snapshot.state = std::move(hit->state);
      snapshot.version = hit->version;
      snapshot.id = hit->event_id;
      snapshot.patches = hit->patches;
      snapshot.snaps = hit->snaps;
      snapshot.cache_hit = true;
      if (use == CacheUse::kCatchUp) {
        // An exact stream's read is never capped by the horizon: every
        // commit of it visible now is read.
        Query query;
        query.stream = std::string(stream);
        query.after = snapshot.id;
        query.with_snaps = true;
        store.query(query, [&](const Committed& event) {
          fold(model, snapshot, event);
          ++snapshot.replayed;
        });
        if (snapshot.replayed > 0) remember(cache, stream, snapshot);
      }
      return snapshot;
    }
    Counters::bump(counters.cache_misses);
  }
  Query query;
  query.stream = std::string(stream);
  query.with_snaps = true;  // starts at the stream's latest snapshot
  detail::AnySnapshot snapshot = replay(store, model, query);
  if (snapshot.replayed > 0) remember(cache, stream, snapshot);
  return snapshot;
}

detail::AnySnapshot load_as_of(Store& store, const detail::StateModel& model, std::string_view stream,
                               const AsOf& as_of) {
  Query query;
  query.stream = std::string(stream);
  query.before = as_of.before_id;
  query.created_before = as_of.before_time;  // snapshots left out: fold from the first event
  return replay(store, model, query);
}

}  // namespace act::app_detail
