#pragma once
// An event as the inspector's pages get it: data, meta and pii as the
// server's jsonb text (shown as stored, 12.50 stays 12.50), pii null when
// the role may not read it.
#include <nlohmann/json.hpp>

#include "act/stored_event.hpp"

namespace actctl::inspector {

nlohmann::json EventJson(const act::StoredEvent& event);

}  // namespace actctl::inspector
