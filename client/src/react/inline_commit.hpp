#pragma once
// An action's commit together with the inline projections its events are
// for, in one transaction on one connection.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "act/pool.hpp"
#include "react/registry.hpp"

namespace act::react {

// BEGIN, each candidate's shared lock (in target order) and act.commit go in
// one round trip; the handlers' statements and COMMIT in a second (a batch
// handler's statements are sent one by one in between). Returns the
// committed rows. Anything that fails (a conflict, a handler's throw or
// statement) rolls everything back and is thrown as it was. A keyed commit
// answered with an earlier commit's rows applies nothing: that commit's own
// transaction did.
std::vector<Committed> commit_inline(ConnectionPool& pool, const Registry& registry,
                                     const std::vector<InlineCandidate>& candidates,
                                     std::string_view stream, const std::vector<Message>& events,
                                     const nlohmann::json& meta, std::optional<std::int32_t> expected_version);

}  // namespace act::react
