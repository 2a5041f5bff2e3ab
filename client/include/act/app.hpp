#pragma once
// The application: states wired to a store, the action pipeline, the cache,
// and the reaction side (reactions, projections, lanes, the drain workers),
// over one database or a partition set of several (docs/scale-out.md): the
// same app runs on either, each stream's calls on its partition's database.
//
//   auto app = act::app(pool).with(counter).with(totals).on<Incremented>("Incremented").handle(...).build();
//   auto spread = act::app(act::PartitionMap({"dbname=p0", "dbname=p1"})).with(counter).build();
//   app.start();                                      // background drain workers
//   app.do_action("increment", {"counter-1", {"u1", "Ann"}}, Increment{5});
//   auto snapshot = app.load(counter, "counter-1");   // cache, else snapshot + replay
//   app.settle();                                     // or: correlate + drain until quiet, on this thread
#include <any>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/audit.hpp"
#include "act/close.hpp"
#include "act/decision.hpp"
#include "act/detail/listeners.hpp"
#include "act/detail/payload.hpp"
#include "act/detail/reaction_model.hpp"
#include "act/drain.hpp"
#include "act/event.hpp"
#include "act/event_name.hpp"
#include "act/observe.hpp"
#include "act/pool.hpp"
#include "act/projection.hpp"
#include "act/reaction.hpp"
#include "act/snapshot.hpp"
#include "act/sql.hpp"
#include "act/state.hpp"
#include "act/store.hpp"
#include "act/store_set.hpp"
#include "act/target.hpp"

namespace act {

namespace app_detail {
struct AppCore;
}
namespace partitions {
class CombinedProjection;
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
  // Makes the action idempotent per stream (meta.idempotency_key, 1 to 200
  // bytes): once a commit with this key landed, do_action with the same key
  // returns the events it wrote instead of running again, and a commit whose
  // reply was lost is sent again safely.
  std::optional<std::string> idempotency_key{};
};

struct DecideOptions {
  // Carried in the appended events' meta; a fresh id is generated when empty.
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
  // When autoclose may close streams (none: at any hour).
  std::optional<AutocloseWindow> autoclose_window;
  // The time autoclose judges its policies by; the system clock when empty.
  std::function<Timestamp()> clock{};
};

class App {
 public:
  App(App&&) noexcept;
  App& operator=(App&&) noexcept;
  ~App();

  // validate → load → invariants → emit → commit (guarded by the loaded
  // version, -1 for a new stream) → fold → cache → snapshot. A
  // ConcurrencyError is retried per the action's retries(); a target with
  // expected_version is never retried, and a stale one is a ConcurrencyError
  // before any rule is checked (even for an action that emits nothing).
  // A cache hit never reads the database, so it may be behind other
  // processes' commits. It is never trusted to refuse an action: a conflict
  // after a cache hit is retried once from the database without using the
  // retry budget, and so is an InvariantError raised on a cached state.
  // Inline projections that handle the events run in the commit's
  // transaction: a handler's failure fails the action and writes nothing.
  ActionResult do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                         const DoOptions& options = {});

  // A decision over a consistency boundary (act/decision.hpp): read, fold,
  // decide, append under the boundary's condition, again after a conflict.
  // It runs on the boundary's database: on a partition set, the partition
  // of the first tag of the query's first item (docs/scale-out.md), where
  // the database checks that the whole boundary lives. The events' meta
  // carries the correlation and causation {"decision": name}.
  template <class M, class C>
  Decided decide(const Decision<M, C>& decision, const C& command, const DecideOptions& options = {}) {
    const EventQuery boundary = decision.query(command);
    const std::int32_t partition = boundary_partition(boundary);
    Store& store = stores_->store(partition);
    return in_partition(partition, partitions(), [&] {
      return decision.run(store, command, boundary, decision_meta(decision.name(), options));
    });
  }

  // The current state: the cache (no database access), else the latest
  // snapshot plus the events after it. A cache hit may be behind other
  // processes' commits: LoadOptions{.fresh = true} reads past it.
  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const LoadOptions& options = {}) {
    return detail::typed<S>(load_any(state.model(), stream, options));
  }

  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const AsOf& as_of) {
    return detail::typed<S>(load_as_of(state.model(), stream, as_of));
  }

  // The state as reader may see it: a state with personal data folds their
  // values when its discloses(reader) allows, "[REDACTED]" otherwise (the
  // loads above read as nobody). Other states load as above.
  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const Actor& reader) {
    return detail::typed<S>(load_for(state.model(), stream, reader));
  }

  // Wipes the stream's personal data (act.forget_pii) and drops its cached
  // state; returns how many events had some. Their sensitive fields read
  // "[SHREDDED]" from then on; the hash chain stays valid.
  std::int64_t forget(std::string_view stream);

  // Closes the books of these streams (act/close.hpp): first correlates, so
  // dynamic targets are known; a stream some reaction or projection has not
  // handled up to its head is skipped, never closed under it. A full close
  // happens only while the head is the one archived (a commit landing
  // meanwhile skips the stream). The cache ends up with the seed, or
  // without the stream. Throws std::invalid_argument for a target with no
  // stream, a stream named twice, or restart with before.
  CloseResult close(const std::vector<CloseTarget>& targets);

  // On a partition set, a query of one stream by exact name only (its partition's).
  std::int64_t query(const Query& query, const std::function<void(const Committed&)>& on_event);

  // The partition set: 1 for a single database.
  std::int32_t partitions() const noexcept { return static_cast<std::int32_t>(cores_.size()); }
  std::int32_t partition_of(std::string_view stream) const { return stores_->partition_of(stream); }
  StoreSet& stores() noexcept { return *stores_; }
  // The single database's store and pool; std::logic_error on a partition
  // set, where stores() has each partition's.
  Store& store();
  ConnectionPool& pool();
  // Summed over the partitions.
  AppStats stats() const;
  void clear_cache();

  // Reactions. Dynamic targets (a resolver that is a function of the event)
  // are found by correlate; fixed targets are marked by the database itself.
  // On a partition set each call runs on every partition, counts summed; a
  // partition that cannot be reached does not stop the others: drain and
  // settle report it as a failure with no target (its error names the
  // partition), the others throw its PartitionError once the rest have run.
  // CorrelateResult::checkpoint is -1 there: each partition has its own.
  CorrelateResult correlate();
  // One drain cycle on every lane, and one page of each read model over all
  // partitions; failures lists what failed in it.
  DrainResult drain();
  // Waits out the debounce, then correlates and drains until a pass makes no
  // progress; returns what was done, and what failed (failures(): which
  // reaction or projection, target, event, error, whether the stream got
  // blocked), listener or not. Runs on the calling thread. A partition set
  // settles partition after partition, again while a round made progress (a
  // reaction of one partition may have committed to another that had
  // settled already); each partition's on_settled hears its own part.
  SettleResult settle(const SettleOptions& options = {});
  // settle(), then SettleError (carrying the result) if any attempt failed.
  SettleResult settle_or_throw(SettleOptions options = {});
  // Starts the background workers: a thread per lane it has work in, a correlator when
  // there are dynamic targets, and a waker on a connection of its own that
  // waits for commits (act.wait, or LISTEN act_commit when notifications are
  // on). Workers also drain every lane's cycle without a wake-up. Their
  // failures go to the on_failure listener or, without one, to stderr. An
  // app without reactions starts only the waker, when its cache is on: a
  // notification naming a cached stream drops the stale state.
  void start(const WorkerOptions& options = {});
  // Stops the workers: each finishes the event in hand, acknowledges what it
  // handled and releases the rest of its leases. Also run by the destructor.
  void shutdown();
  // The same, waiting at most `grace` (plus the time to join those that
  // finished): a worker still busy then (a handler stuck in a call) is let
  // go and logged. It runs on by itself, keeping what it uses alive (the
  // app's core, its pool and handlers) even once the App is destroyed, sees
  // ReactionContext::stopping() and stops after the event in hand; its
  // leases run out in the database and other workers take the streams.
  void shutdown(std::chrono::milliseconds grace);

  // Recovery, over every partition (StoreSet).
  std::vector<Subscription> blocked_streams(const std::optional<std::string>& after = {}, std::int32_t limit = 100);
  // StreamFilter::named({}) selects no row.
  std::int32_t unblock(const StreamFilter& streams);
  std::int32_t reset(const StreamFilter& streams);
  std::int32_t prioritize(const StreamFilter& streams, std::int32_t priority);
  // Empties the projection's read model and rewinds its watermark in one
  // transaction, then drains it back to the head, reporting after each cycle.
  // An inline projection is rebuilt in one transaction that holds its lock
  // (its commits wait meanwhile): emptied, replayed from the log up to the
  // head, committed; a failing handler leaves it as it was (blocked, error).
  // A read model over every partition is emptied and its positions set to
  // 0 in one transaction, then every partition's events are applied back to
  // their horizons (RebuildProgress::at and head are -1: its position is a vector).
  RebuildProgress rebuild(const Projection& projection,
                          const std::function<void(const RebuildProgress&)>& on_progress = {});
  // A read model over every partition: the last id applied from each
  // partition, index = partition (0: nothing applied yet).
  // std::invalid_argument for a projection not given as one.
  std::vector<std::int64_t> positions(const Projection& projection);

  // A health audit (act/audit.hpp, docs/reactions.md "Reading the audit"):
  // StoreAudit's checks on every partition, then those that need this app's
  // declarations; each reads a bounded sample. It only reads.
  std::vector<AuditFinding> audit(const AuditOptions& options = {});

  // Projection versions (docs/reactions.md, "A new projection version"),
  // for projections this app drains (std::invalid_argument otherwise). On a
  // partition set each partition has its own versions of the read model:
  // figures are summed, and each partition switches in its own transaction.
  // How far the version is behind the live position.
  ProjectionLag projection_lag(const Projection& version);
  // Drains the version on this thread up to the live position, then makes it
  // current in one transaction that checks it has at most max_lag events
  // still to apply, replaces the views of the reading schema
  // (Projection::reads_through) with views of its relations and records the
  // switch; again while commits keep it behind. The old version is kept, and
  // fed while an app declares it. Side effects the old version had not run
  // for events the new one applied while catching up are run here, after
  // the commit. std::logic_error when the version has no subscription or
  // the name no versions yet (start the reactions, or drain, first).
  SwitchResult switch_projection(const Projection& version, const SwitchOptions& options = {});
  // The current version of the projection (partition 0's on a partition
  // set): 1 when no version after the first nor any side effect was declared.
  std::int32_t current_projection_version(std::string_view name);
  // Drops what the version built (its schema; for version 1, the relations
  // of the names the reading schema shows) and stops its subscription for
  // good, on every partition. std::logic_error when it is current or this
  // app still drains it.
  void drop_projection_version(std::string_view name, std::int32_t version);

  // The application's own SQL in one transaction on a pooled connection of
  // the single database (std::logic_error on a partition set).
  void transact(const std::function<void(Sql&)>& work);

 private:
  friend class AppBuilder;
  using Core = std::shared_ptr<app_detail::AppCore>;
  App(std::shared_ptr<StoreSet> stores, std::vector<Core> cores,
      std::vector<std::shared_ptr<partitions::CombinedProjection>> read_models);
  app_detail::AppCore& core_for(std::string_view stream);
  app_detail::AppCore& only_core(const char* what);
  partitions::CombinedProjection* read_model(const Projection& projection);
  std::int32_t boundary_partition(const EventQuery& boundary) const;
  static nlohmann::json decision_meta(const std::string& decision, const DecideOptions& options);
  // work(core) on the stream's partition (act::in_partition).
  template <class F>
  auto on_stream(std::string_view stream, F&& work) -> decltype(work(std::declval<app_detail::AppCore&>())) {
    const std::int32_t partition = partition_of(stream);
    app_detail::AppCore& core = *cores_[static_cast<std::size_t>(partition)];
    return in_partition(partition, partitions(), [&] { return work(core); });
  }
  detail::AnySnapshot load_any(const detail::StateModel& state, std::string_view stream, const LoadOptions& options);
  detail::AnySnapshot load_as_of(const detail::StateModel& state, std::string_view stream, const AsOf& as_of);
  detail::AnySnapshot load_for(const detail::StateModel& state, std::string_view stream, const Actor& reader);
  SettleResult settle_partitions(const SettleOptions& options);

  std::shared_ptr<StoreSet> stores_;
  std::vector<Core> cores_;  // index = partition
  std::vector<std::shared_ptr<partitions::CombinedProjection>> read_models_;
};

template <class E>
class ReactionBuilder;

class AppBuilder {
 public:
  explicit AppBuilder(std::shared_ptr<ConnectionPool> pool);
  // A partition set: each stream's actions, loads and reactions run on its partition's database.
  explicit AppBuilder(PartitionMap partitions);

  template <class S>
  AppBuilder with(const State<S>& state) && {
    return std::move(*this).with_model(state.shared_model());
  }
  AppBuilder with(const Projection& projection) &&;
  // A read model over every partition, kept in read_model's database
  // (docs/scale-out.md, "A read model over all partitions"): its position is
  // a vector, the last id applied from each partition, stored there in
  // act_partition_positions by the transaction of the handlers' writes:
  // exactly once, whichever process applies it. The lane workers, drain,
  // settle and start run it with the reactions. On a single database it is
  // the same with one partition. build() throws std::invalid_argument for an
  // inline projection, a target given twice or an undeclared lane.
  AppBuilder with(const Projection& projection, std::shared_ptr<ConnectionPool> read_model) &&;
  // A reaction to events named event_name whose payload converts to E
  // (nlohmann::json: the payload as it is).
  template <class E>
  ReactionBuilder<E> on(std::string event_name) &&;
  // The same, for an event type that names itself (act/event_name.hpp).
  template <named_event E>
  ReactionBuilder<E> on() && {
    return std::move(*this).template on<E>(std::string(act::event_name<E>()));
  }
  // Events this app reacts to that no state of it declares: written by
  // other applications or by SQL. Reacting to any other undeclared name is
  // an error at build().
  AppBuilder declares(std::vector<std::string> event_names) &&;
  // Declares a lane (or, named "default", configures the default one).
  AppBuilder lane(Lane lane) &&;
  // Called (from worker threads too) for every failed reaction attempt and
  // every worker cycle the database refused; a throw from it is logged.
  // Without a listener the workers log each one; settle() and drain()
  // report them in their results either way.
  AppBuilder on_failure(std::function<void(const ReactionFailure&)> listener) &&;
  // Where the app logs what it meets and does not throw: worker failures
  // nobody listens to, snapshot commits that failed, acknowledgements the
  // database dropped, events no reaction handles. Default: stderr_logger().
  AppBuilder logger(std::shared_ptr<Logger> logger) &&;
  // Lifecycle callbacks (act/observe.hpp), called on whichever thread met
  // the moment, worker threads included, so they must be thread-safe; a
  // throw from one is logged and goes no further.
  // After do_action's commit (a reaction's actions too), with its events.
  AppBuilder on_committed(std::function<void(const std::vector<Committed>&)> listener) &&;
  // After an acknowledgement that moved a target's watermark landed.
  AppBuilder on_acked(std::function<void(const Acked&)> listener) &&;
  // After a target got blocked, with the failure that blocked it.
  AppBuilder on_blocked(std::function<void(const ReactionFailure&)> listener) &&;
  // When settle() finished, with what it returns (before settle_or_throw throws).
  AppBuilder on_settled(std::function<void(const SettleResult&)> listener) &&;
  // Every error met on the reaction side: each failed attempt (also heard by
  // on_failure), a refused cycle, a failed correlate pass, a lost wake-up connection.
  AppBuilder on_error(std::function<void(const WorkerError&)> listener) &&;
  AppBuilder cache_size(std::size_t streams) &&;
  AppBuilder page_size(std::int32_t events) &&;
  // The hours autoclose may close streams in (hours 0-23, start != end).
  AppBuilder autoclose_window(AutocloseWindow window) &&;
  // The time autoclose policies are judged by (the system clock by default).
  AppBuilder clock(std::function<Timestamp()> now) &&;
  // Throws std::invalid_argument when two states declare the same action,
  // when a reaction or projection handles an event no state declares (and
  // declares() does not name), or when reactions contradict each other (a
  // target served twice, an undeclared lane, a handler name used twice for
  // one event).
  App build() &&;

 private:
  template <class E>
  friend class ReactionBuilder;
  AppBuilder with_model(std::shared_ptr<const detail::StateModel> model) &&;
  AppBuilder with_reaction(detail::ReactionModel reaction) &&;
  std::vector<std::shared_ptr<partitions::CombinedProjection>> build_read_models() const;

  PartitionMap partitions_;
  AppOptions options_;
  std::vector<std::shared_ptr<const detail::StateModel>> states_;
  std::vector<detail::ReactionModel> reactions_;
  std::vector<std::shared_ptr<const detail::ProjectionModel>> projections_;
  std::vector<std::pair<std::shared_ptr<const detail::ProjectionModel>, std::shared_ptr<ConnectionPool>>> read_models_;
  std::vector<Lane> lanes_;
  detail::Listeners listeners_;
  std::vector<std::string> external_events_;
};

template <class E>
class ReactionBuilder {
 public:
  ReactionBuilder(AppBuilder owner, std::string event_name) : owner_(std::move(owner)) {
    if (event_name.empty()) throw std::invalid_argument("on(): the event name must not be empty");
    reaction_.event = std::move(event_name);
  }

  // A fixed target reading every stream's events: the database marks it at commit.
  ReactionBuilder to(std::string target) && { return std::move(*this).to(Route{std::move(target)}); }
  // A fixed route (target, source, priority, lane).
  ReactionBuilder to(Route route) && {
    if (route.target.empty()) throw std::invalid_argument("to(): the target must not be empty");
    reaction_.route = std::move(route);
    reaction_.resolve = nullptr;
    return std::move(*this);
  }
  // The fixed target's name in the app's earlier version (after to()): the
  // target goes on from that row's watermark (docs/reactions.md, "Moving a
  // reaction"). A former name with no row, while the target has none
  // either, refuses the start: a typo would replay the target's history.
  ReactionBuilder renamed_from(std::string former) && {
    if (!reaction_.route)
      throw std::invalid_argument("renamed_from(): only a fixed target, set by to() first, has a former name");
    if (former.empty()) throw std::invalid_argument("renamed_from(): the former name must not be empty");
    reaction_.route->renamed_from = std::move(former);
    return std::move(*this);
  }
  // A route that depends on the event: resolver(const Committed&) -> std::optional<Route>
  // (nullopt: the event is not for this reaction). Must be pure: it runs in
  // correlate and again in the drain, maybe in other processes.
  template <class F>
    requires std::is_invocable_r_v<std::optional<Route>, F&, const Committed&>
  ReactionBuilder to(F resolver) && {
    reaction_.route.reset();
    reaction_.resolve = std::move(resolver);
    return std::move(*this);
  }
  // The handler gets the personal data of its events (sensitive fields,
  // "[SHREDDED]" once forgotten or when the app's role may not read them);
  // without this they are removed.
  ReactionBuilder discloses_pii() && {
    reaction_.discloses_pii = true;
    return std::move(*this);
  }
  ReactionBuilder options(ReactionOptions options) && {
    if (options.max_retries < 0) throw std::invalid_argument("options(): max_retries must be 0 or more");
    reaction_.options = std::move(options);
    return std::move(*this);
  }

  // Finishes the reaction: handler(const E&, ReactionContext&). name must be
  // unique among this event's reactions.
  template <class F>
  AppBuilder handle(std::string name, F handler) && {
    static_assert(std::is_invocable_v<F&, const E&, ReactionContext&>, "handle(): handler(const E&, ReactionContext&)");
    if (name.empty()) throw std::invalid_argument("handle(): the reaction name must not be empty");
    reaction_.name = std::move(name);
    if (!reaction_.route && !reaction_.resolve) {
      // The event's own stream, reading that stream.
      reaction_.resolve = [](const Committed& event) { return std::optional<Route>(Route{event.stream, event.stream}); };
    }
    reaction_.handle = [handler = std::move(handler)](const Committed& event, ReactionContext& context) mutable {
      if constexpr (std::is_same_v<E, nlohmann::json>) {
        handler(event.data, context);
      } else {
        handler(detail::parse_payload<E>(event.data, event.name), context);
      }
    };
    return std::move(owner_).with_reaction(std::move(reaction_));
  }

 private:
  AppBuilder owner_;
  detail::ReactionModel reaction_;
};

template <class E>
ReactionBuilder<E> AppBuilder::on(std::string event_name) && {
  return ReactionBuilder<E>(std::move(*this), std::move(event_name));
}

AppBuilder app(std::shared_ptr<ConnectionPool> pool);
AppBuilder app(PartitionMap partitions);
// A pool of its own on a libpq connection string (empty: the PG* environment).
AppBuilder app(std::string conninfo, PoolOptions pool_options = {});

}  // namespace act
