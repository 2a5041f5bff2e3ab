#include "json_args.hpp"

#include "jsonb_access.hpp"

namespace act::pg {

nlohmann::json JsonArgument(FunctionCallInfo fcinfo, int index) {
  if (PG_ARGISNULL(index)) return nullptr;
  // jsonb text is valid JSON by construction.
  return nlohmann::json::parse(CanonicalText(JsonbArg(fcinfo, index)));
}

}  // namespace act::pg
