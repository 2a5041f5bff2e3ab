#pragma once
// App::rebuild of an inline projection: the whole replay in one transaction.
#include <functional>

#include "act/detail/reaction_model.hpp"
#include "act/drain.hpp"
#include "act/pool.hpp"
#include "react/registry.hpp"

namespace act::react {

// Takes the projection's lock exclusively (inline commits of it wait, and
// none is in flight), empties the read model, applies every event of the
// log it handles up to the head, and commits; reports after each page. A
// handler that fails leaves everything as it was: the result is blocked,
// with the error. Database failures throw.
RebuildProgress rebuild_inline(ConnectionPool& pool, const Registry& registry, const detail::ProjectionModel& projection,
                               const std::function<void(const RebuildProgress&)>& on_progress);

}  // namespace act::react
