#pragma once
// An action as the Work page sends it: which operator, the streams the
// operator confirmed, how many rows the dry run said would change, and the
// operator's value (priority, until). Read strictly: an unknown key, a
// missing one or a value of the wrong type is a BadRequest naming it.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "operator_calls.hpp"

namespace actctl::inspector {

// Most streams one action names: a page of the Work view.
inline constexpr std::size_t kMostStreamsPerAction = 1000;

struct ActionRequest {
  Operator op{};
  std::string name;  // "unblock", ...
  std::vector<std::string> streams;
  std::int64_t confirmed = 0;
  std::optional<std::int32_t> priority;  // prioritize
  std::optional<std::string> until;      // defer: a timestamptz as the server reads it
};

// The operator named in the URL; none for a name that is not one.
std::optional<Operator> OperatorNamed(const std::string& name);

// body: the POST body; for a dry run (confirmed not needed), the same fields from the query string.
ActionRequest ParseAction(const std::string& name, const nlohmann::json& body, bool dry_run);

}  // namespace actctl::inspector
