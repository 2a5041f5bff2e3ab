#include "act/app.hpp"
#include "act/reaction.hpp"
#include "app/app_core.hpp"
#include "app/loader.hpp"

namespace act {

ActionResult ReactionContext::do_action(std::string_view action, const Target& target, const nlohmann::json& payload) {
  DoOptions options;
  if (const auto correlation = event_.meta.find("correlation");
      correlation != event_.meta.end() && correlation->is_string())
    options.correlation = correlation->get<std::string>();
  return app_detail::run_action(core_, action, target, payload, options,
                                app_detail::EventRef{event_.id, event_.name, event_.stream});
}

detail::AnySnapshot ReactionContext::load_any(const detail::StateModel& state, std::string_view stream,
                                              const LoadOptions& options) {
  return app_detail::load_current(core_.store, core_.cache, core_.counters, state, stream,
                                  app_detail::cache_use(options));
}

detail::AnySnapshot ReactionContext::load_for(const detail::StateModel& state, std::string_view stream,
                                              const Actor& reader) {
  return app_detail::load_current(core_.store, core_.cache, core_.counters, state, stream,
                                  app_detail::CacheUse::kCatchUp, &reader);
}

std::int64_t ReactionContext::query(const Query& query, const std::function<void(const Committed&)>& on_event) {
  return core_.store.query(query, on_event);
}

}  // namespace act
