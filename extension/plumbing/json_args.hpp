#pragma once
// jsonb arguments as nlohmann::json for the validators in core/.
#include <nlohmann/json.hpp>
#include <string_view>

#include "error_bridge.hpp"

namespace act::pg {

// SQL NULL reads as JSON null. `name` names the argument in errors: one over
// core::kMaxPayloadBytes is refused before it is parsed.
nlohmann::json JsonArgument(FunctionCallInfo fcinfo, int index, std::string_view name);

}  // namespace act::pg
