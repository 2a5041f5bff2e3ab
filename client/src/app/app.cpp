#include "act/app.hpp"

#include <stdexcept>

#include "app/app_core.hpp"
#include "app/autoclose.hpp"
#include "app/event_rules.hpp"
#include "app/loader.hpp"

namespace act {

App::App(std::shared_ptr<app_detail::AppCore> core) : core_(std::move(core)) {}
App::App(App&&) noexcept = default;

App& App::operator=(App&& other) noexcept {
  if (this != &other) {
    shutdown();  // the workers hold a share of the core: they would run on
    core_ = std::move(other.core_);
  }
  return *this;
}

App::~App() { shutdown(); }

ActionResult App::do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                            const DoOptions& options) {
  return app_detail::run_action(*core_, action, target, payload, options);
}

detail::AnySnapshot App::load_any(const detail::StateModel& state, std::string_view stream, const LoadOptions& options) {
  return app_detail::load_current(core_->store, core_->cache, core_->counters, state, stream,
                                  app_detail::cache_use(options));
}

detail::AnySnapshot App::load_for(const detail::StateModel& state, std::string_view stream, const Actor& reader) {
  return app_detail::load_current(core_->store, core_->cache, core_->counters, state, stream,
                                  app_detail::CacheUse::kTrust, &reader);
}

std::int64_t App::forget(std::string_view stream) {
  const std::int64_t wiped = core_->store.forget_pii(stream);
  core_->cache.drop(stream);
  return wiped;
}

detail::AnySnapshot App::load_as_of(const detail::StateModel& state, std::string_view stream, const AsOf& as_of) {
  return app_detail::load_as_of(core_->store, state, stream, as_of);
}

std::int64_t App::query(const Query& query, const std::function<void(const Committed&)>& on_event) {
  return core_->store.query(query, on_event);
}

Store& App::store() noexcept { return core_->store; }
ConnectionPool& App::pool() noexcept { return core_->store.pool(); }
AppStats App::stats() const { return core_->counters.read(); }
void App::clear_cache() { core_->cache.clear(); }

AppBuilder::AppBuilder(std::shared_ptr<ConnectionPool> pool) : pool_(std::move(pool)) {
  if (!pool_) throw std::invalid_argument("app(): no connection pool");
}

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

App AppBuilder::build() && {
  app_detail::check_handled_events_are_declared(states_, external_events_, reactions_, projections_);
  for (detail::ReactionModel& reaction : app_detail::autoclose_reactions(states_)) reactions_.push_back(std::move(reaction));
  auto registry = std::make_unique<react::Registry>(std::move(reactions_), std::move(projections_), std::move(lanes_),
                                                    app_detail::app_upcasts(states_), app_detail::app_sensitive_fields(states_));
  auto core = std::make_shared<app_detail::AppCore>(std::move(pool_), options_, std::move(listeners_));
  for (const auto& state : states_) {
    for (const auto& [name, action] : state->actions) {
      const auto [where, added] = core->action_owners.emplace(name, state);
      if (!added && where->second != state) {
        throw std::invalid_argument("action " + name + " is declared by both " + where->second->name + " and " +
                                    state->name);
      }
    }
  }
  core->states = states_;
  core->reactor = std::make_unique<react::Reactor>(*core, std::move(registry));
  return App(std::move(core));
}

AppBuilder app(std::shared_ptr<ConnectionPool> pool) { return AppBuilder(std::move(pool)); }

AppBuilder app(std::string conninfo, PoolOptions pool_options) {
  return AppBuilder(std::make_shared<ConnectionPool>(std::move(conninfo), pool_options));
}

}  // namespace act
