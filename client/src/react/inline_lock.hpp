#pragma once
// The lock that keeps an inline projection's commits and its rebuild apart:
// a transaction-scoped advisory lock keyed by the projection's target. Every
// inline commit takes it shared before act.commit and holds it until its
// transaction ends, so while a rebuild holds it exclusively no commit of
// that projection has events in flight (docs/reactions.md, "Inline projections").
#include <string>
#include <string_view>

#include "db/params.hpp"

namespace act::react::inline_lock {

// Shared; one row when taken. $2: a pattern source the stream $3 must match
// (the database's regex engine, C collation as at subscribe), or NULL.
inline constexpr std::string_view kTakeShared =
    "SELECT pg_advisory_xact_lock_shared(hashtextextended($1::text, 0)) FROM (SELECT 1) one "
    "WHERE $2::text IS NULL OR $3::text ~ ($2::text COLLATE \"C\")";

// Exclusive: waits for every in-flight commit of the projection to end.
inline constexpr std::string_view kTakeExclusive = "SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))";

// $1 of both: a name of its own, so other advisory locks of the application rarely share the key.
inline std::string key(std::string_view target) { return "pg_act inline projection " + std::string(target); }

}  // namespace act::react::inline_lock
