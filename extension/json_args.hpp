#pragma once
// jsonb arguments as nlohmann::json for the validators in core/.
#include <nlohmann/json.hpp>

#include "error_bridge.hpp"

namespace act::pg {

// SQL NULL reads as JSON null.
nlohmann::json JsonArgument(FunctionCallInfo fcinfo, int index);

}  // namespace act::pg
