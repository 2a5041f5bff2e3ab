#pragma once
// A kept checkpoint as the Overview and Verification pages get it.
#include <nlohmann/json.hpp>

#include "act/log_transaction.hpp"

namespace actctl::inspector {

nlohmann::json CheckpointJson(const act::StoredCheckpoint& checkpoint);

}  // namespace actctl::inspector
