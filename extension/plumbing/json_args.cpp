#include "json_args.hpp"

#include "act/core/errors.hpp"
#include "act/core/validation.hpp"
#include "jsonb_access.hpp"

namespace act::pg {

nlohmann::json JsonArgument(FunctionCallInfo fcinfo, int index, std::string_view name) {
  if (PG_ARGISNULL(index)) return nullptr;
  // Parsed, a document takes many times its jsonb size.
  core::ValidateArgumentSize(name, ArgumentBytes(fcinfo, index));
  try {
    return nlohmann::json::parse(CanonicalText(JsonbArg(fcinfo, index)));
  } catch (const nlohmann::json::out_of_range&) {
    // jsonb text is JSON, but a jsonb number may exceed a double (1e400).
    throw core::ValidationError(std::string(name) + " holds a number beyond the range of a double");
  } catch (const nlohmann::json::exception& error) {
    // Invalid UTF-8, possible only in a SQL_ASCII database.
    throw core::ValidationError(std::string(name) + " cannot be read: " + error.what());
  }
}

}  // namespace act::pg
