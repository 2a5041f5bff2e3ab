#pragma once
// The parameters of act.commit, shared by Store::commit and the inline
// commit (react/inline_commit.cpp), which sends the same call queued.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "db/params.hpp"

namespace act::store_params {

db::Params commit(std::string_view stream, const std::vector<Message>& events, const nlohmann::json& meta,
                  std::optional<std::int32_t> expected_version);

}  // namespace act::store_params
