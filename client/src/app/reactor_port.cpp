#include "app/reactor_port.hpp"

#include "app/app_core.hpp"
#include "app/close_books.hpp"
#include "app/loader.hpp"
#include "app/owner.hpp"

namespace act::app_detail {

Store& ReactorPort::store() noexcept { return core_.store; }
const Observers& ReactorPort::observers() const noexcept { return core_.observers; }
cache::StateCache& ReactorPort::cache() noexcept { return core_.cache; }
std::shared_ptr<const void> ReactorPort::share() { return core_.shared_from_this(); }

std::vector<SubscriptionSpec> ReactorPort::hosted(const std::vector<SubscriptionSpec>& fixed) const {
  return core_.route ? core_.route->hosted(fixed) : fixed;
}

ActionResult ReactorPort::do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                                    const DoOptions& options, const react::EventRef& cause) {
  return on_owner(core_, target.stream,
                  [&](AppCore& owner) { return run_action(owner, action, target, payload, options, cause); });
}

detail::AnySnapshot ReactorPort::load(const detail::StateModel& state, std::string_view stream,
                                      const LoadOptions& options) {
  return on_owner(core_, stream, [&](AppCore& owner) {
    return load_current(owner.store, owner.cache, owner.counters, state, stream, cache_use(options));
  });
}

detail::AnySnapshot ReactorPort::load_for(const detail::StateModel& state, std::string_view stream,
                                          const Actor& reader) {
  return on_owner(core_, stream, [&](AppCore& owner) {
    return load_current(owner.store, owner.cache, owner.counters, state, stream, CacheUse::kCatchUp, &reader);
  });
}

Timestamp ReactorPort::now() const { return core_.clock ? core_.clock() : timestamp_now(); }

const std::optional<AutocloseWindow>& ReactorPort::autoclose_window() const noexcept { return core_.autoclose_window; }

CloseResult ReactorPort::close(const std::vector<CloseTarget>& targets) { return close_books(core_, targets); }

}  // namespace act::app_detail
