#include "app/loader.hpp"

#include <stdexcept>

#include "act/detail/event_versions.hpp"
#include "act/errors.hpp"

namespace act::app_detail {

namespace {

// A snapshot this state cannot restore: written under another state version,
// or one its from_json refuses. The load folds the stream from its first
// event instead.
struct UnusableSnapshot {};

// A catch-up that met a version it did not expect.
struct Discontinuous {};

std::any restore_snapshot(const detail::StateModel& model, const Committed& event) {
  if (snapshot_version(event) != model.version || !model.restore) throw UnusableSnapshot{};
  try {
    return model.restore(event.data);
  } catch (const ValidationError&) {
    throw UnusableSnapshot{};
  }
}

}  // namespace

std::int32_t snapshot_version(const Committed& snapshot) {
  const auto written = snapshot.meta.find("state_version");
  return written != snapshot.meta.end() && written->is_number_integer() ? written->get<std::int32_t>() : 1;
}

detail::Disclosure disclosure_for(const detail::StateModel& model, const Actor* reader) {
  return reader && model.discloses && model.discloses(*reader) ? detail::Disclosure::kPlaintext
                                                               : detail::Disclosure::kRedacted;
}

void fold(const detail::StateModel& model, detail::AnySnapshot& snapshot, const Committed& stored, SnapshotUse use,
          detail::Disclosure personal) {
  if (stored.name == kSnapshotEvent) {
    if (use == SnapshotUse::kRestore) {
      snapshot.state = restore_snapshot(model, stored);
      ++snapshot.snaps;
      snapshot.patches = 0;
    }
    snapshot.event = stored;
  } else {
    Committed event = model.personal() ? detail::view_of(stored, model.sensitive, personal) : stored;
    detail::upcast(model.upcasts, event);
    if (const auto reducer = model.reducers.find(event.name); reducer != model.reducers.end()) {
      reducer->second.apply(snapshot.state, event);
      ++snapshot.patches;
    }
    snapshot.event = std::move(event);
  }
  // A snapshot passed over still takes a version: the head is the stream's.
  snapshot.version = stored.version;
  snapshot.id = stored.id;
}

namespace {

// Folds what query reads onto the initial state.
detail::AnySnapshot replay(Store& store, const detail::StateModel& model, const Query& query,
                           SnapshotUse use = SnapshotUse::kRestore,
                           detail::Disclosure personal = detail::Disclosure::kRedacted) {
  detail::AnySnapshot snapshot;
  snapshot.state = model.init();
  store.query(query, [&](const Committed& event) {
    fold(model, snapshot, event, use, personal);
    ++snapshot.replayed;
  });
  return snapshot;
}

// The stream from its latest snapshot on, or, when that snapshot cannot be
// restored, every event from the first with the snapshots passed over.
detail::AnySnapshot replay_stream(Store& store, const detail::StateModel& model, std::string_view stream,
                                  detail::Disclosure personal) {
  Query query;
  query.stream = std::string(stream);
  query.with_snaps = true;  // starts at the stream's latest snapshot
  try {
    return replay(store, model, query, SnapshotUse::kRestore, personal);
  } catch (const UnusableSnapshot&) {
    query.after = 0;  // with an id to start after, the read starts there, not at the snapshot
    return replay(store, model, query, SnapshotUse::kPassOver, personal);
  }
}

// A closed stream is not cached: every action on it must see the tombstone.
void remember(cache::StateCache& cache, std::string_view stream, const detail::AnySnapshot& snapshot) {
  if (snapshot.event && snapshot.event->name == kTombstoneEvent) {
    cache.drop(stream);
  } else {
    cache.put(stream, cache_entry(snapshot));
  }
}

}  // namespace

cache::Entry cache_entry(const detail::AnySnapshot& snapshot) {
  return cache::Entry{snapshot.state, snapshot.version, snapshot.id, snapshot.patches, snapshot.snaps};
}

detail::AnySnapshot load_current(Store& store, cache::StateCache& cache, Counters& counters,
                                 const detail::StateModel& model, std::string_view stream, CacheUse use,
                                 const Actor* reader) {
  if (model.personal()) return replay_stream(store, model, stream, disclosure_for(model, reader));
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
        // commit of it visible now is read. Snapshots are read for their
        // versions and passed over: the cached state already holds theirs.
        Query query;
        query.stream = std::string(stream);
        query.after = snapshot.id;
        query.with_snaps = true;
        try {
          store.query(query, [&](const Committed& event) {
            // A gap is a stream restarted or trimmed elsewhere: the cached
            // state is no base for what follows.
            if (event.version != snapshot.version + 1) throw Discontinuous{};
            fold(model, snapshot, event, SnapshotUse::kPassOver);
            ++snapshot.replayed;
          });
        } catch (const Discontinuous&) {
          snapshot = replay_stream(store, model, stream, detail::Disclosure::kRedacted);
        }
        if (snapshot.replayed > 0) remember(cache, stream, snapshot);
      }
      return snapshot;
    }
    Counters::bump(counters.cache_misses);
  }
  detail::AnySnapshot snapshot = replay_stream(store, model, stream, detail::Disclosure::kRedacted);
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
