#pragma once
// The application: states wired to a store, the action pipeline, the cache.
//
//   auto app = act::app(pool).with(counter).build();
//   app.do_action("increment", {"counter-1", {"u1", "Ann"}}, Increment{5});
//   auto snapshot = app.load(counter, "counter-1");   // cache, else snapshot + replay
#include <any>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "act/pool.hpp"
#include "act/snapshot.hpp"
#include "act/state.hpp"
#include "act/store.hpp"
#include "act/target.hpp"

namespace act {

namespace app_detail {
struct AppCore;
}

// Time travel: the state as it was before an event id, or before a time
// (both exclusive). Such loads read the store from the first event, skip
// snapshots and never read or write the cache.
struct AsOf {
  std::optional<std::int64_t> before_id;
  std::optional<Timestamp> before_time;
};

struct DoOptions {
  // Carried in every event's meta; a fresh id is generated when empty.
  std::optional<std::string> correlation;
};

struct ActionResult {
  std::vector<Committed> events;  // committed by this action (none when the handler emitted none)
  std::int32_t version = -1;      // the stream's head afterwards (a snapshot included)
  std::int64_t id = -1;
  std::int32_t attempts = 1;      // loads of the state (more than 1 after a conflict or a stale cache)
  bool snapshotted = false;
  std::any state;

  template <class S>
  const S& state_as() const {
    return std::any_cast<const S&>(state);
  }
};

// Counters since the app was built.
struct AppStats {
  std::uint64_t conflicts = 0;            // ConcurrencyErrors met by do_action
  std::uint64_t retries = 0;              // conflicts retried from the action's budget
  std::uint64_t cache_rechecks = 0;  // conflicts or refusals after a cache hit, re-run on the database's state
  std::uint64_t snapshots = 0;            // __snapshot__ events committed
  std::uint64_t snapshot_failures = 0;    // snapshot commits that failed (the action still succeeded)
  std::uint64_t cache_hits = 0;
  std::uint64_t cache_misses = 0;
};

struct AppOptions {
  std::size_t cache_size = 1000;  // streams; 0 turns the cache off
  StoreOptions store;
};

class App {
 public:
  App(App&&) noexcept;
  App& operator=(App&&) noexcept;
  ~App();

  // validate → load → invariants → emit → commit (guarded by the loaded
  // version, -1 for a new stream) → fold → cache → snapshot. A
  // ConcurrencyError is retried per the action's retries(); a target with
  // expected_version is never retried.
  // A cache hit never reads the database, so it may be behind other
  // processes' commits. It is never trusted to refuse an action: a conflict
  // after a cache hit is retried once from the database without using the
  // retry budget, and so is an InvariantError raised on a cached state.
  ActionResult do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                         const DoOptions& options = {});

  // The current state: the cache (no database access), else the latest
  // snapshot plus the events after it.
  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream) {
    return detail::typed<S>(load_any(state.model(), stream, nullptr));
  }

  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const AsOf& as_of) {
    return detail::typed<S>(load_any(state.model(), stream, &as_of));
  }

  std::int64_t query(const Query& query, const std::function<void(const Committed&)>& on_event);

  Store& store() noexcept;
  ConnectionPool& pool() noexcept;
  AppStats stats() const;
  void clear_cache();

 private:
  friend class AppBuilder;
  explicit App(std::unique_ptr<app_detail::AppCore> core);
  detail::AnySnapshot load_any(const detail::StateModel& state, std::string_view stream, const AsOf* as_of);

  std::unique_ptr<app_detail::AppCore> core_;
};

class AppBuilder {
 public:
  explicit AppBuilder(std::shared_ptr<ConnectionPool> pool);

  template <class S>
  AppBuilder with(const State<S>& state) && {
    return std::move(*this).with_model(state.shared_model());
  }
  AppBuilder cache_size(std::size_t streams) &&;
  AppBuilder page_size(std::int32_t events) &&;
  // Throws std::invalid_argument when two states declare the same action.
  App build() &&;

 private:
  AppBuilder with_model(std::shared_ptr<const detail::StateModel> model) &&;

  std::shared_ptr<ConnectionPool> pool_;
  AppOptions options_;
  std::vector<std::shared_ptr<const detail::StateModel>> states_;
};

AppBuilder app(std::shared_ptr<ConnectionPool> pool);
// A pool of its own on a libpq connection string (empty: the PG* environment).
AppBuilder app(std::string conninfo, PoolOptions pool_options = {});

}  // namespace act
