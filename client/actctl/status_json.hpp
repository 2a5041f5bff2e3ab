#pragma once
// act.status()'s row as name/value pairs in the function's column order:
// what `actctl status` prints and the inspector's /api/status sends.
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "act/monitor.hpp"

namespace actctl {

std::vector<std::pair<std::string, nlohmann::json>> StatusFields(const act::StoreStatus& status);

}  // namespace actctl
