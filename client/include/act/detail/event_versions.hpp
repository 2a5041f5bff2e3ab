#pragma once
// Event versions by name: "Base_vN" (N >= 2, digits) is version N of Base;
// any other name, "Foo_v1" included, is version 1 of itself.
#include <cstdint>
#include <string>
#include <string_view>

#include "act/detail/state_model.hpp"

namespace act::detail {

struct EventVersion {
  std::string base;
  std::int32_t number = 1;
};

EventVersion event_version(std::string_view name);

// Checks a state's upcasters and versions, and records its deprecated
// events: throws std::invalid_argument naming what is wrong.
void settle_event_versions(StateModel& model);

// The name the upcasters lead name to (name itself when none reads it).
std::string newest_name(const Upcasts& upcasts, std::string name);

// Rewrites event to the newest version its upcasters reach (name and data);
// false when none applies. Never touches the stored event.
bool upcast(const Upcasts& upcasts, Committed& event);

}  // namespace act::detail
