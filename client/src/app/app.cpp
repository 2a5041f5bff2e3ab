#include "act/app.hpp"

#include <algorithm>
#include <stdexcept>

#include "app/app_core.hpp"
#include "app/autoclose.hpp"
#include "app/event_rules.hpp"
#include "app/loader.hpp"
#include "partitions/combined_projection.hpp"
#include "random_uuid.hpp"

namespace act {

App::App(std::shared_ptr<StoreSet> stores, std::vector<Core> cores,
         std::vector<std::shared_ptr<partitions::CombinedProjection>> read_models)
    : stores_(std::move(stores)), cores_(std::move(cores)), read_models_(std::move(read_models)) {}
App::App(App&&) noexcept = default;

App& App::operator=(App&& other) noexcept {
  if (this != &other) {
    shutdown();  // the workers hold a share of the cores: they would run on
    stores_ = std::move(other.stores_);
    cores_ = std::move(other.cores_);
    read_models_ = std::move(other.read_models_);
  }
  return *this;
}

App::~App() { shutdown(); }

app_detail::AppCore& App::core_for(std::string_view stream) {
  return *cores_[static_cast<std::size_t>(partition_of(stream))];
}

app_detail::AppCore& App::only_core(const char* what) {
  if (partitions() != 1)
    throw std::logic_error(std::string("App::") + what + ": the app runs on " + std::to_string(partitions()) +
                           " partitions; stores() has each partition's store");
  return *cores_.front();
}

ActionResult App::do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                            const DoOptions& options) {
  return on_stream(target.stream, [&](app_detail::AppCore& core) {
    return app_detail::run_action(core, action, target, payload, options);
  });
}

detail::AnySnapshot App::load_any(const detail::StateModel& state, std::string_view stream, const LoadOptions& options) {
  return on_stream(stream, [&](app_detail::AppCore& core) {
    return app_detail::load_current(core.store, core.cache, core.counters, state, stream,
                                    app_detail::cache_use(options));
  });
}

detail::AnySnapshot App::load_for(const detail::StateModel& state, std::string_view stream, const Actor& reader) {
  return on_stream(stream, [&](app_detail::AppCore& core) {
    return app_detail::load_current(core.store, core.cache, core.counters, state, stream, app_detail::CacheUse::kTrust,
                                    &reader);
  });
}

std::int64_t App::forget(std::string_view stream) {
  return on_stream(stream, [&](app_detail::AppCore& core) {
    const std::int64_t wiped = core.store.forget_pii(stream);
    core.cache.drop(stream);
    return wiped;
  });
}

detail::AnySnapshot App::load_as_of(const detail::StateModel& state, std::string_view stream, const AsOf& as_of) {
  return on_stream(stream,
                   [&](app_detail::AppCore& core) { return app_detail::load_as_of(core.store, state, stream, as_of); });
}

std::int64_t App::query(const Query& query, const std::function<void(const Committed&)>& on_event) {
  if (partitions() == 1) return cores_.front()->store.query(query, on_event);
  if (!query.stream || !query.stream_exact)
    throw std::logic_error(
        "App::query: on a partition set, one stream by exact name only; stores() reads each partition");
  return on_stream(*query.stream, [&](app_detail::AppCore& core) { return core.store.query(query, on_event); });
}

std::int32_t App::boundary_partition(const EventQuery& boundary) const {
  if (partitions() == 1 || boundary.items.empty() || boundary.items.front().tags.empty()) return 0;
  return partition_of(boundary.items.front().tags.front());
}

nlohmann::json App::decision_meta(const std::string& decision, const DecideOptions& options) {
  return {{"correlation", options.correlation.value_or(detail::random_uuid())},
          {"causation", {{"decision", decision}}}};
}

Store& App::store() { return only_core("store()").store; }
ConnectionPool& App::pool() { return only_core("pool()").store.pool(); }

AppStats App::stats() const {
  AppStats total;
  for (const Core& core : cores_) {
    const AppStats each = core->counters.read();
    total.conflicts += each.conflicts;
    total.retries += each.retries;
    total.cache_rechecks += each.cache_rechecks;
    total.snapshots += each.snapshots;
    total.snapshot_failures += each.snapshot_failures;
    total.cache_hits += each.cache_hits;
    total.cache_misses += each.cache_misses;
  }
  return total;
}

void App::clear_cache() {
  for (const Core& core : cores_) core->cache.clear();
}

namespace {

PartitionMap single(std::shared_ptr<ConnectionPool> pool) {
  if (!pool) throw std::invalid_argument("app(): no connection pool");
  return PartitionMap({std::move(pool)});
}

}  // namespace

AppBuilder::AppBuilder(std::shared_ptr<ConnectionPool> pool) : partitions_(single(std::move(pool))) {}
AppBuilder::AppBuilder(PartitionMap partitions) : partitions_(std::move(partitions)) {}

AppBuilder AppBuilder::with_model(std::shared_ptr<const detail::StateModel> model) && {
  states_.push_back(std::move(model));
  return std::move(*this);
}

AppBuilder AppBuilder::cache_size(std::size_t streams) && {
  options_.cache_size = streams;
  return std::move(*this);
}

AppBuilder AppBuilder::page_size(std::int32_t events) && {
  options_.store.page_size = events;
  return std::move(*this);
}

AppBuilder AppBuilder::autoclose_window(AutocloseWindow window) && {
  const auto is_hour = [](int hour) { return hour >= 0 && hour <= 23; };
  if (!is_hour(window.start_hour) || !is_hour(window.end_hour))
    throw std::invalid_argument("autoclose_window(): hours are 0 to 23");
  if (window.start_hour == window.end_hour)
    throw std::invalid_argument("autoclose_window(): start and end are the same hour");
  options_.autoclose_window = window;
  return std::move(*this);
}

AppBuilder AppBuilder::clock(std::function<Timestamp()> now) && {
  if (!now) throw std::invalid_argument("clock(): no clock");
  options_.clock = std::move(now);
  return std::move(*this);
}

AppBuilder AppBuilder::with(const Projection& projection) && {
  projections_.push_back(projection.model());
  return std::move(*this);
}

AppBuilder AppBuilder::with(const Projection& projection, std::shared_ptr<ConnectionPool> read_model) && {
  if (!read_model) throw std::invalid_argument("with(" + projection.target() + "): no read model pool");
  if (projection.version() != 1 || !projection.model()->side_effects.empty())
    throw std::invalid_argument("with(" + projection.target() +
                                ", read_model): a read model over all partitions has no versions or side effects");
  read_models_.emplace_back(projection.model(), std::move(read_model));
  return std::move(*this);
}

AppBuilder AppBuilder::with_reaction(detail::ReactionModel reaction) && {
  reactions_.push_back(std::move(reaction));
  return std::move(*this);
}

AppBuilder AppBuilder::on_failure(std::function<void(const ReactionFailure&)> listener) && {
  listeners_.on_failure = std::move(listener);
  return std::move(*this);
}

AppBuilder AppBuilder::logger(std::shared_ptr<Logger> logger) && {
  if (!logger) throw std::invalid_argument("logger(): no logger");
  listeners_.logger = std::move(logger);
  return std::move(*this);
}

AppBuilder AppBuilder::on_committed(std::function<void(const std::vector<Committed>&)> listener) && {
  listeners_.on_committed = std::move(listener);
  return std::move(*this);
}

AppBuilder AppBuilder::on_acked(std::function<void(const Acked&)> listener) && {
  listeners_.on_acked = std::move(listener);
  return std::move(*this);
}

AppBuilder AppBuilder::on_blocked(std::function<void(const ReactionFailure&)> listener) && {
  listeners_.on_blocked = std::move(listener);
  return std::move(*this);
}

AppBuilder AppBuilder::on_settled(std::function<void(const SettleResult&)> listener) && {
  listeners_.on_settled = std::move(listener);
  return std::move(*this);
}

AppBuilder AppBuilder::on_error(std::function<void(const WorkerError&)> listener) && {
  listeners_.on_error = std::move(listener);
  return std::move(*this);
}

AppBuilder AppBuilder::declares(std::vector<std::string> event_names) && {
  for (std::string& name : event_names) {
    if (name.empty()) throw std::invalid_argument("declares(): an event name is empty");
    external_events_.push_back(std::move(name));
  }
  return std::move(*this);
}

AppBuilder AppBuilder::lane(Lane lane) && {
  lanes_.push_back(std::move(lane));
  return std::move(*this);
}

std::vector<std::shared_ptr<partitions::CombinedProjection>> AppBuilder::build_read_models() const {
  std::vector<std::shared_ptr<partitions::CombinedProjection>> built;
  for (const auto& [projection, pool] : read_models_) {
    const std::string& target = projection->route.target;
    if (projection->run_inline)
      throw std::invalid_argument("with(" + target +
                                  ", read_model): an inline projection runs in its commit's database");
    const auto same_target = [&](const auto& other) { return other->route.target == target; };
    if (std::ranges::count_if(read_models_, [&](const auto& other) { return same_target(other.first); }) > 1 ||
        std::ranges::any_of(projections_, same_target))
      throw std::invalid_argument("with(" + target + ", read_model): the projection is given twice");
    built.push_back(std::make_shared<partitions::CombinedProjection>(projection, pool, partitions_.partitions()));
  }
  return built;
}

App AppBuilder::build() && {
  app_detail::check_handled_events_are_declared(states_, external_events_, reactions_, projections_);
  for (const auto& [projection, pool] : read_models_)
    app_detail::check_handled_events_are_declared(states_, external_events_, {}, {projection});
  for (detail::ReactionModel& reaction : app_detail::autoclose_reactions(states_)) reactions_.push_back(std::move(reaction));
  std::map<std::string, std::shared_ptr<const detail::StateModel>, std::less<>> action_owners;
  for (const auto& state : states_) {
    for (const auto& [name, action] : state->actions) {
      const auto [where, added] = action_owners.emplace(name, state);
      if (!added && where->second != state) {
        throw std::invalid_argument("action " + name + " is declared by both " + where->second->name + " and " +
                                    state->name);
      }
    }
  }
  std::vector<std::shared_ptr<partitions::CombinedProjection>> read_models = build_read_models();
  const std::int32_t partitions = partitions_.partitions();
  std::vector<App::Core> cores;
  for (std::int32_t p = 0; p < partitions; ++p) {
    // Each partition's reactor has a registry of its own: its lanes and coverage are that database's.
    auto registry = std::make_unique<react::Registry>(
        reactions_, projections_, lanes_, app_detail::app_upcasts(states_), app_detail::app_sensitive_fields(states_));
    auto core = std::make_shared<app_detail::AppCore>(partitions_.pool(p), options_, listeners_);
    core->action_owners = action_owners;
    core->states = states_;
    core->reactor = std::make_unique<react::Reactor>(core->port, std::move(registry));
    core->reactor->serve(read_models, p, partitions);
    cores.push_back(std::move(core));
  }
  if (partitions > 1) {
    // Before any worker runs: nothing reads the routes concurrently with this.
    auto linked = std::make_shared<app_detail::PartitionRoute::Cores>(cores.begin(), cores.end());
    for (std::int32_t p = 0; p < partitions; ++p) cores[static_cast<std::size_t>(p)]->route.emplace(p, linked);
  }
  auto stores = std::make_shared<StoreSet>(std::move(partitions_), options_.store);
  return App(std::move(stores), std::move(cores), std::move(read_models));
}

AppBuilder app(std::shared_ptr<ConnectionPool> pool) { return AppBuilder(std::move(pool)); }
AppBuilder app(PartitionMap partitions) { return AppBuilder(std::move(partitions)); }

AppBuilder app(std::string conninfo, PoolOptions pool_options) {
  return AppBuilder(std::make_shared<ConnectionPool>(std::move(conninfo), pool_options));
}

}  // namespace act
