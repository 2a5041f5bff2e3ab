#include "react/reactor.hpp"

#include <algorithm>
#include <stdexcept>

#include "act/errors.hpp"
#include "cache/state_cache.hpp"
#include "db/transact.hpp"
#include "observe/observers.hpp"
#include "random_uuid.hpp"
#include "react/inline_rebuild.hpp"
#include "react/projection_apply.hpp"
#include "react/projection_versions.hpp"
#include "react/projection_views.hpp"
#include "react/target_moves.hpp"
#include "react/waker.hpp"
#include "store/reaction_calls.hpp"

namespace act::react {
namespace {

constexpr std::int32_t kScanLimit = 1000;
constexpr std::chrono::milliseconds kFailureBackoffMin{50};
constexpr std::chrono::milliseconds kFailureBackoffMax{5'000};
constexpr std::chrono::milliseconds kRebuildPoll{10};

std::chrono::steady_clock::time_point steady_from(Timestamp due) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(due - std::chrono::system_clock::now());
}

// A failure outside any handler: the database refused a worker's call.
ReactionFailure refused(const std::exception& error) {
  return ReactionFailure{{}, std::nullopt, {}, error.what(), 0, false, {}, {}};
}

std::string lane_label(const Lane& lane) { return "lane " + lane.name; }

constexpr std::string_view kWakerName = "waker";

}  // namespace

Reactor::Reactor(AppPort& app, std::unique_ptr<Registry> registry)
    : app_(app), registry_(std::move(registry)), deps_{app, *registry_, coverage_, foreign_, stopping_} {
  if (registry_->has_dynamic())
    correlator_ = std::make_unique<Correlator>(app_.store(), *registry_, coverage_, detail::random_uuid());
  for (const auto& [name, lane] : registry_->lanes()) lanes_.push_back(std::make_unique<LaneSlot>(lane));
}

Reactor::~Reactor() {
  shutdown();
  // A lease left to run out would keep the next process of this app from correlating for a while.
  if (correlator_) correlator_->release();
}

void Reactor::reconcile_existing(const SubscriptionSpec& spec, const std::vector<Subscription>& stored) {
  for (const Subscription& row : stored) {
    if (row.stream != spec.stream) continue;
    if (!row.names) continue;  // every name
    std::vector<std::string> missing;
    for (const std::string& name : *spec.names)
      if (std::find(row.names->begin(), row.names->end(), name) == row.names->end()) missing.push_back(name);
    if (missing.empty()) continue;
    // One that lacks names this version delivers would never be marked for
    // their events: it is widened to them (act.widen).
    const Widened widened = app_.store().widen(spec.stream, missing);
    if (widened.added.empty()) continue;  // another process of this version widened it first
    std::string added;
    for (const std::string& name : widened.added) added += (added.empty() ? "" : ",") + name;
    app_.observers().log(LogLevel::kWarning,
                         "fixed target widened to this app's event names; their events up to its watermark "
                         "are not delivered (reset the target to replay them)",
                         {{"target", spec.stream}, {"added", added}, {"at", std::to_string(widened.at)}});
  }
}

void Reactor::initialize() {
  const std::lock_guard lock(initialize_mutex_);
  if (initialized_) return;
  for (const auto& projection : registry_->projections()) {
    if (!projection->setup && projection->schema.empty()) continue;
    db::transact(app_.store().pool(), [&](Sql& sql) {
      sql.exec(kSerializeSetUp);
      create_schema(sql, *projection);
      enter_schema(sql, *projection);
      if (projection->setup) projection->setup(sql);
    });
  }
  set_up_versions(app_.store().pool(), *registry_);
  // On a partition set, a row whose literal source is another partition's is that partition's.
  const std::vector<SubscriptionSpec> fixed = app_.hosted(registry_->static_subscriptions());
  if (!fixed.empty()) {
    for (const SubscriptionSpec& spec : fixed)
      reconcile_existing(spec, move_target(app_, spec, registry_->former_name(spec.stream)));
    app_.store().subscribe(fixed);
  }
  initialized_ = true;
}

void Reactor::serve(const std::vector<std::shared_ptr<partitions::CombinedProjection>>& read_models,
                    std::int32_t partition, std::int32_t partitions) {
  for (const auto& read_model : read_models) {
    const std::string& lane = read_model->model().route.lane;
    if (!registry_->lanes().contains(lane))
      throw std::invalid_argument("projection " + read_model->target() + ": its lane " + lane + " is not declared");
  }
  read_models_.add(read_models, partition, partitions);
}

std::vector<std::string> Reactor::unapplied(const std::vector<CloseTarget>& targets) {
  return read_models_.unapplied(app_, *registry_, targets);
}

void Reactor::committed(const std::vector<Committed>& events) {
  if (std::any_of(events.begin(), events.end(), [&](const Committed& event) {
        return registry_->reacts_to(event.name) || read_models_.reads(event.name);
      }))
    wake_on_commit();
}

std::vector<InlineCandidate> Reactor::inline_candidates(std::string_view stream,
                                                        const std::vector<std::string>& event_names) {
  std::vector<InlineCandidate> candidates = registry_->inline_candidates(stream, event_names);
  if (!candidates.empty()) initialize();
  return candidates;
}

void Reactor::wake_on_commit() {
  for (const auto& slot : lanes_)
    if (!slot->parks_in_server) slot->wake.notify();
  correlate_wake_.notify();
}

void Reactor::wake_all() {
  for (const auto& slot : lanes_) {
    slot->wake.notify();
    slot->controller.parked().interrupt();
  }
  correlate_wake_.notify();
}

CorrelateResult Reactor::correlate() {
  initialize();
  if (!correlator_) return {};
  const CorrelateResult result = correlator_->scan(kScanLimit);
  if (result.subscribed > 0 || result.marked > 0) wake_all();
  return result;
}

DrainResult Reactor::drain() { return drain_lanes(AckMode::kSend); }

DrainResult Reactor::drain_lanes(AckMode mode) {
  initialize();
  DrainResult total;
  if (idle()) return total;
  for (const auto& slot : lanes_) {
    if (registry_->claims_lane(slot->controller.lane().name)) total += slot->controller.drain(deps_, mode).result;
  }
  // drain() steps each read model over all partitions once; settle() until caught up.
  const auto pace =
      mode == AckMode::kSend ? partitions::ReadModels::Pace::kOnce : partitions::ReadModels::Pace::kUntilCaughtUp;
  total += read_models_.step(app_, *registry_, nullptr, pace, false);
  return total;
}

DrainResult Reactor::flush_lanes() {
  DrainResult total;
  for (const auto& slot : lanes_) total += slot->controller.flush(deps_);
  return total;
}

void Reactor::flush_quietly(LaneSlot& slot) noexcept {
  try {
    slot.controller.flush(deps_);
  } catch (const std::exception& error) {
    // Their leases run out and the streams are claimed again.
    app_.observers().worker_failed(lane_label(slot.controller.lane()), refused(error));
  } catch (...) {
    app_.observers().error(lane_label(slot.controller.lane()), "flushing acknowledgements threw a non-exception");
  }
}

SettleResult Reactor::settle(const SettleOptions& options) {
  SettleResult total;
  if (idle()) return total;
  std::this_thread::sleep_for(options.debounce);
  // Each pass's acknowledgements ride on the next pass's claim; the last ones
  // are sent before settle returns, so the caller sees every row acknowledged.
  try {
    for (int pass = 0; pass < options.max_passes; ++pass) {
      const CorrelateResult correlated = correlate();
      const DrainResult drained = drain_lanes(AckMode::kCarry);
      ++total.passes;
      total.subscribed += correlated.subscribed;
      total.drained += drained;
      if (correlated.events == 0 && correlated.subscribed == 0 && !drained.progressed()) break;
    }
  } catch (...) {
    for (const auto& slot : lanes_) flush_quietly(*slot);
    throw;
  }
  total.drained += flush_lanes();
  app_.observers().settled(total);
  if (options.throw_on_failure && total.drained.failed > 0) throw SettleError(std::move(total));
  return total;
}

Reactor::LaneSlot& Reactor::slot_for(const std::string& lane) {
  for (const auto& slot : lanes_) {
    if (slot->controller.lane().name == lane) return *slot;
  }
  throw std::logic_error("no controller for lane " + lane);
}

bool Reactor::parks_in_server(LaneSlot& slot) {
  const std::string& lane = slot.controller.lane().name;
  // With dynamic reactions the correlator's marks wake the lanes, and they
  // come without a commit: interrupting a waiting claim for them (a cancel)
  // costs more than the round trip the wait saves.
  if (!registry_->claims_lane(lane) || read_models_.in_lane(lane) || registry_->has_dynamic()) return false;
  try {
    return slot.controller.parked().wakes_on_commit(app_.store().pool().conninfo());
  } catch (const std::exception& error) {
    // Out of reach now: the lane parks on its wake-up signal, as in fenced mode.
    app_.observers().worker_failed(lane_label(slot.controller.lane()), refused(error));
    return false;
  }
}

void Reactor::lane_loop(LaneSlot& slot, const WorkerOptions& options, const WorkerRun& run) {
  const Lane& lane = slot.controller.lane();
  // This run's stop, not the reactor's: a thread let go stays stopped after a restart.
  CycleDeps deps{app_, *registry_, coverage_, foreign_, run.stopping};
  std::chrono::milliseconds backoff = kFailureBackoffMin;
  const bool in_server = parks_in_server(slot);
  slot.parks_in_server = in_server;
  const std::string conninfo = app_.store().pool().conninfo();
  bool parked = false;  // the last cycles ended with nothing left to do
  auto wake_at = std::chrono::steady_clock::now();
  while (!run.stopping) {
    // Parked, the lane's next claim waits in the server: a commit wakes it
    // and hands over its events in one round trip. Woken already (an
    // unblock, a reset, stop), it claims at once instead. The wait is capped
    // at wait_slice, as the waker's are, in case a stop's cancel misses it.
    std::optional<std::chrono::milliseconds> park;
    const auto now = std::chrono::steady_clock::now();
    if (in_server && parked && wake_at > now) {
      if (!slot.wake.wait_until(now))
        park = std::min(std::chrono::ceil<std::chrono::milliseconds>(wake_at - now), options.wait_slice);
    } else {
      slot.wake.wait_until(wake_at);
    }
    wake_at = std::chrono::steady_clock::now() + lane.cycle;
    parked = false;
    for (bool first = true; !run.stopping; first = false) {
      CycleReport report;
      try {
        if (registry_->claims_lane(lane.name))
          report = first && park ? slot.controller.drain_parked(deps, conninfo, *park)
                                 : slot.controller.drain(deps, AckMode::kCarry);
        report.result += read_models_.step(app_, *registry_, &lane.name, partitions::ReadModels::Pace::kOnce, true);
        backoff = kFailureBackoffMin;
      } catch (const std::exception& error) {
        // The database is out of reach: the next cycle tries again, later and later.
        app_.observers().worker_failed(lane_label(lane), refused(error));
        wake_at = std::chrono::steady_clock::now() + backoff;
        backoff = std::min(backoff * 2, kFailureBackoffMax);
        break;
      }
      app_.observers().log_unheard(report.result);
      if (report.next_due) wake_at = std::min(wake_at, steady_from(*report.next_due));
      if (!report.result.progressed()) {
        parked = true;
        break;
      }
    }
    // Never park (or stop) holding acknowledgements: they would keep their
    // streams leased until the next cycle, or until the leases run out.
    flush_quietly(slot);
  }
  slot.parks_in_server = false;
  slot.controller.parked().close();
}

void Reactor::correlate_loop(const WorkerOptions& options, const WorkerRun& run) {
  std::chrono::milliseconds backoff = kFailureBackoffMin;
  auto wake_at = std::chrono::steady_clock::now();
  while (!run.stopping) {
    correlate_wake_.wait_until(wake_at);
    wake_at = std::chrono::steady_clock::now() + options.correlate_every;
    try {
      for (CorrelateResult result; !run.stopping;) {
        result = correlate();
        if (!result.scanned || result.events < kScanLimit) break;
      }
      backoff = kFailureBackoffMin;
    } catch (const std::exception& error) {
      app_.observers().worker_failed("correlator", refused(error));
      wake_at = std::chrono::steady_clock::now() + backoff;
      backoff = std::min(backoff * 2, kFailureBackoffMax);
    }
  }
}

void Reactor::spawn(std::string name, std::function<void()> loop) {
  // The thread's share of the core keeps the reactor, its lanes and the
  // handlers alive for as long as it runs, even once let go past a grace.
  workers_.spawn(name, [share = app_.share(), &app = app_, name, loop = std::move(loop)] {
    try {
      loop();
    } catch (const std::exception& error) {
      app.observers().error(name, error.what());
    } catch (...) {
      app.observers().error(name, "a worker threw a non-exception");
    }
  });
}

void Reactor::start(const WorkerOptions& options) {
  for (const std::string& name : options.only_lanes) {
    if (!registry_->lanes().contains(name))
      throw std::invalid_argument("start(): only_lanes names lane " + name + ", which is not declared");
  }
  const std::lock_guard lock(workers_mutex_);
  if (!workers_.empty()) return;
  // Without reactions the waker still keeps the cache fresh.
  if (idle() && !app_.cache().enabled()) return;
  initialize();
  stopping_ = false;
  run_ = std::make_shared<WorkerRun>();
  correlate_wake_.restart();
  for (const auto& slot : lanes_) {
    // No work of this app in a lane, no worker there: the lane's rows are other apps'.
    const std::string& lane = slot->controller.lane().name;
    if (!serves_lane(lane)) continue;
    if (!options.only_lanes.empty() && !options.only_lanes.contains(lane)) continue;
    slot->wake.restart();
    spawn("lane " + lane, [this, &slot = *slot, options, run = run_] { lane_loop(slot, options, *run); });
  }
  if (correlator_) spawn("correlator", [this, options, run = run_] { correlate_loop(options, *run); });
  spawn(std::string(kWakerName), [this, options, run = run_] {
    // A commit named in a notification drops a cached state it left behind.
    const auto forget_stale = [this](const CommitNotice& notice) {
      app_.cache().invalidate(notice.stream, notice.last_id - 1);
    };
    Waker(
        app_.store().pool().conninfo(), options, [this] { wake_on_commit(); }, app_.observers(), forget_stale)
        .run(run->stop);
  });
}

void Reactor::shutdown(std::optional<std::chrono::milliseconds> grace) {
  const std::lock_guard lock(workers_mutex_);
  if (workers_.empty()) return;
  const auto deadline = grace ? std::optional(std::chrono::steady_clock::now() + *grace) : std::nullopt;
  stopping_ = true;
  run_->stopping = true;
  run_->stop.stop();
  correlate_wake_.stop();
  for (const auto& slot : lanes_) {
    slot->wake.stop();
    slot->controller.parked().interrupt();
  }
  const std::vector<std::string> let_go = workers_.join(deadline);
  // A correlator let go may be inside a scan, holding the lease: it runs out by itself.
  if (correlator_ && std::find(let_go.begin(), let_go.end(), "correlator") == let_go.end()) correlator_->release();
  // The waker may be inside an act.wait of up to wait_slice: let go, it ends
  // by itself then, so only the others are worth a warning.
  std::string busy;
  for (const std::string& name : let_go) {
    if (name != kWakerName) busy += (busy.empty() ? "" : ",") + name;
  }
  if (!busy.empty()) {
    app_.observers().log(LogLevel::kWarning, "shutdown let workers go that were still running after the grace period",
                         {{"workers", busy}, {"grace_ms", std::to_string(grace->count())}});
  }
  run_.reset();
  stopping_ = false;
}

RebuildProgress Reactor::rebuild(const detail::ProjectionModel& projection,
                                 const std::function<void(const RebuildProgress&)>& on_progress) {
  initialize();
  if (projection.run_inline) return rebuild_inline(app_.store().pool(), *registry_, projection, on_progress);
  const std::string& target = projection.route.target;
  db::transact(app_.store().pool(), [&](Sql& sql) {
    enter_schema(sql, projection);
    if (projection.truncate) projection.truncate(sql);
    sql.exec("SELECT act.reset($1::jsonb)", {nlohmann::json::array({target})});
  });
  wake_all();
  RebuildProgress progress;
  progress.target = target;
  LaneSlot& slot = slot_for(projection.route.lane);
  for (;;) {
    const std::vector<Subscription> rows = app_.store().query_streams(StreamFilter::exactly(target));
    if (rows.empty()) throw std::logic_error("projection " + target + " has no subscription");
    const Subscription& row = rows.front();
    progress.at = row.at;
    progress.head = row.correlated_at.value_or(-1);
    progress.blocked = row.blocked;
    progress.error = row.error;
    if (progress.blocked || progress.at >= progress.head) break;
    const CycleReport report = slot.controller.drain(deps_, AckMode::kSend);
    if (const auto mine = report.handled_by_target.find(target); mine != report.handled_by_target.end()) {
      progress.applied += mine->second;
    } else {
      // Held by a worker elsewhere, or not claimable yet: look again shortly.
      std::this_thread::sleep_for(kRebuildPoll);
    }
    if (on_progress) on_progress(progress);
  }
  if (on_progress) on_progress(progress);
  return progress;
}

}  // namespace act::react
