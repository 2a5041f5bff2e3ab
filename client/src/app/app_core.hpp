#pragma once
// What an App holds; shared by the files of src/app.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "act/app.hpp"
#include "app/causation.hpp"
#include "app/counters.hpp"
#include "app/partition_route.hpp"
#include "app/reactor_port.hpp"
#include "cache/state_cache.hpp"
#include "observe/observers.hpp"
#include "react/reactor.hpp"

namespace act::app_detail {

// Shared: App holds it, and so does each worker thread, so a thread that
// App::shutdown(grace) let go finds everything it uses still there.
struct AppCore : std::enable_shared_from_this<AppCore> {
  AppCore(std::shared_ptr<ConnectionPool> pool, const AppOptions& options, detail::Listeners listeners)
      : store(std::move(pool), options.store), cache(options.cache_size), observers(std::move(listeners)),
        autoclose_window(options.autoclose_window), clock(options.clock) {}

  Store store;
  cache::StateCache cache;
  // Built once, read-only afterwards: safe to share between threads.
  std::map<std::string, std::shared_ptr<const detail::StateModel>, std::less<>> action_owners;
  std::vector<std::shared_ptr<const detail::StateModel>> states;
  Counters counters;
  Observers observers;
  std::optional<AutocloseWindow> autoclose_window;
  std::function<Timestamp()> clock;  // empty: the system clock
  // Set by AppBuilder::build on a partition set, before anything runs; empty for a single database.
  std::optional<PartitionRoute> route;
  // What the reactor may use of all this.
  ReactorPort port{*this};
  // Last: stopped (its workers joined) before the rest goes.
  std::unique_ptr<react::Reactor> reactor;
};

// The action pipeline behind App::do_action; caused_by is set for an action a reaction runs.
ActionResult run_action(AppCore& core, std::string_view action, const Target& target, const nlohmann::json& payload,
                        const DoOptions& options, const std::optional<EventRef>& caused_by = std::nullopt);

}  // namespace act::app_detail
