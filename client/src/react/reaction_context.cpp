#include "act/reaction.hpp"

#include "react/app_port.hpp"

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
  return app_.do_action(action, target, payload, caused, react::EventRef{event_.id, event_.name, event_.stream});
}

detail::AnySnapshot ReactionContext::load_any(const detail::StateModel& state, std::string_view stream,
                                              const LoadOptions& options) {
  return app_.load(state, stream, options);
}

detail::AnySnapshot ReactionContext::load_for(const detail::StateModel& state, std::string_view stream,
                                              const Actor& reader) {
  return app_.load_for(state, stream, reader);
}

std::int64_t ReactionContext::query(const Query& query, const std::function<void(const Committed&)>& on_event) {
  return app_.store().query(query, on_event);
}

}  // namespace act
