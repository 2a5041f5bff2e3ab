#pragma once
// The parameters of act.commit, shared by Store::commit and the inline
// commit (react/inline_commit.cpp), which sends the same call queued; and act.append's.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/boundary.hpp"
#include "act/event.hpp"
#include "db/params.hpp"

namespace act::store_params {

db::Params commit(std::string_view stream, const std::vector<Message>& events, const nlohmann::json& meta,
                  std::optional<std::int32_t> expected_version);
// act.append's: each event with its stream, the condition (none: NULL), the meta.
db::Params append(const std::vector<StreamMessage>& events, const std::optional<AppendCondition>& condition,
                  const nlohmann::json& meta);

}  // namespace act::store_params
