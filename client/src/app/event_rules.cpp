#include "app/event_rules.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

namespace act::app_detail {

// Every state's upcasters: reactions and projections read through them all.
detail::Upcasts app_upcasts(const StateModels& states) {
  // Two states that read the same event each declare its upcaster (their
  // folds use their own); they must agree on where it leads.
  detail::Upcasts upcasts;
  std::map<std::string, const detail::StateModel*> declared_by;
  for (const auto& state : states) {
    for (const auto& [from, upcast] : state->upcasts) {
      declared_by.emplace(from, state.get());
      if (const auto [where, added] = upcasts.emplace(from, upcast); !added && where->second.to != upcast.to) {
        throw std::invalid_argument("event " + from + " is upcast to " + where->second.to + " by " +
                                    declared_by.at(from)->name + " and to " + upcast.to + " by " + state->name);
      }
    }
  }
  return upcasts;
}

// Every state's sensitive fields: an event's are removed for every handler
// that does not disclose them, whichever state marked them.
detail::SensitiveFields app_sensitive_fields(const StateModels& states) {
  detail::SensitiveFields sensitive;
  for (const auto& state : states) {
    for (const auto& [event_name, fields] : state->sensitive) {
      std::vector<std::string>& all = sensitive[event_name];
      for (const std::string& field : fields)
        if (std::find(all.begin(), all.end(), field) == all.end()) all.push_back(field);
    }
  }
  // A state that folds or emits the event without the same marks would
  // commit the personal data into `data`, where forget cannot reach it.
  for (const auto& state : states) {
    for (const auto& [event_name, fields] : sensitive) {
      if (!state->reducers.contains(event_name)) continue;
      const auto own = state->sensitive.find(event_name);
      std::vector<std::string> marked = own == state->sensitive.end() ? std::vector<std::string>{} : own->second;
      std::vector<std::string> wanted = fields;
      std::sort(marked.begin(), marked.end());
      std::sort(wanted.begin(), wanted.end());
      if (marked != wanted) {
        std::string list;
        for (const std::string& field : wanted) list += (list.empty() ? "" : ", ") + field;
        throw std::invalid_argument("state " + state->name + " declares " + event_name +
                                    " without marking all of its personal data (" + list +
                                    "): mark the same fields in every state that declares it");
      }
    }
  }
  return sensitive;
}

// A reaction or projection of an event nobody declares is most likely a
// typo: it would wait for events that never come.
void check_handled_events_are_declared(const StateModels& states,
                                       const std::vector<std::string>& external,
                                       const std::vector<detail::ReactionModel>& reactions,
                                       const std::vector<std::shared_ptr<const detail::ProjectionModel>>& projections) {
  std::set<std::string, std::less<>> declared(external.begin(), external.end());
  for (const auto& state : states) {
    for (const auto& [name, reducer] : state->reducers) declared.insert(name);
    for (const auto& [name, upcast] : state->upcasts) declared.insert(name);
  }
  const auto check = [&](const std::string& event, const std::string& owner) {
    if (!declared.contains(event))
      throw std::invalid_argument(owner + " handles " + event +
                                  ", which no state of the app declares: patch<E>() it, or name it in declares() "
                                  "when other applications write it");
  };
  for (const auto& reaction : reactions) check(reaction.event, "reaction " + reaction.name);
  for (const auto& projection : projections)
    for (const auto& [event, handler] : projection->handlers) check(event, "projection " + projection->route.target);
}

}  // namespace act::app_detail
