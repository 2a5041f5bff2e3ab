#pragma once
// A kept checkpoint as the Overview and Verification pages get it.
#include <nlohmann/json.hpp>

#include "act/monitor.hpp"

namespace actctl::inspector {

nlohmann::json CheckpointJson(const act::CheckpointSummary& checkpoint);

}  // namespace actctl::inspector
