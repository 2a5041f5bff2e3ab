#include "act/app.hpp"
#include "act/reaction.hpp"
#include "app/app_core.hpp"
#include "app/loader.hpp"
#include "app/owner.hpp"

namespace act {

ActionResult ReactionContext::do_action(std::string_view action, const Target& target, const nlohmann::json& payload) {
  return do_action(action, target, payload, DoOptions{});
}

ActionResult ReactionContext::do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                                        const DoOptions& options) {
  DoOptions caused = options;
  if (const auto correlation = event_.meta.find("correlation");
      !caused.correlation && correlation != event_.meta.end() && correlation->is_string())
    caused.correlation = correlation->get<std::string>();
  const app_detail::EventRef cause{event_.id, event_.name, event_.stream};
  return app_detail::on_owner(core_, target.stream, [&](app_detail::AppCore& owner) {
    return app_detail::run_action(owner, action, target, payload, caused, cause);
  });
}

detail::AnySnapshot ReactionContext::load_any(const detail::StateModel& state, std::string_view stream,
                                              const LoadOptions& options) {
  return app_detail::on_owner(core_, stream, [&](app_detail::AppCore& owner) {
    return app_detail::load_current(owner.store, owner.cache, owner.counters, state, stream,
                                    app_detail::cache_use(options));
  });
}

detail::AnySnapshot ReactionContext::load_for(const detail::StateModel& state, std::string_view stream,
                                              const Actor& reader) {
  return app_detail::on_owner(core_, stream, [&](app_detail::AppCore& owner) {
    return app_detail::load_current(owner.store, owner.cache, owner.counters, state, stream,
                                    app_detail::CacheUse::kCatchUp, &reader);
  });
}

std::int64_t ReactionContext::query(const Query& query, const std::function<void(const Committed&)>& on_event) {
  return core_.store.query(query, on_event);
}

}  // namespace act
