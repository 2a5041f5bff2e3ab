#pragma once
// What the app's states say of its events as a whole, checked and merged
// once at build: upcasters and personal data apply to every reaction and
// projection, whichever state declared them.
#include <memory>
#include <string>
#include <vector>

#include "act/detail/event_versions.hpp"
#include "act/detail/personal_data.hpp"
#include "act/detail/reaction_model.hpp"
#include "act/detail/state_model.hpp"

namespace act::app_detail {

using StateModels = std::vector<std::shared_ptr<const detail::StateModel>>;

// Throws std::invalid_argument when two states upcast one event to different versions.
detail::Upcasts app_upcasts(const StateModels& states);

// Throws std::invalid_argument when a state declares an event another marks
// sensitive without the same marks.
detail::SensitiveFields app_sensitive_fields(const StateModels& states);

// Throws std::invalid_argument for a reaction or projection of an event no
// state declares and `external` does not name.
void check_handled_events_are_declared(const StateModels& states, const std::vector<std::string>& external,
                                       const std::vector<detail::ReactionModel>& reactions,
                                       const std::vector<std::shared_ptr<const detail::ProjectionModel>>& projections);

}  // namespace act::app_detail
