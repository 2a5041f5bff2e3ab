#pragma once
// The reaction-side SQL calls on a given session: the Store runs them on a
// pooled connection, a projection runs ack and reset inside its own transaction.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "act/store.hpp"
#include "act/subscriptions.hpp"
#include "db/session.hpp"
#include "db/statement.hpp"

namespace act::reaction_calls {

SubscribeResult subscribe(db::Session& session, const std::vector<SubscriptionSpec>& entries,
                          std::optional<std::int64_t> checkpoint, const std::optional<CorrelatorLease>& correlator);
std::vector<Lease> claim(db::Session& session, std::int32_t lagging, std::int32_t leading, const std::string& by,
                         std::int32_t millis, const std::optional<std::string>& lane);
// act.claim_events: `acks` (none: NULL) applied as ack() applies them, then
// a claim whose rows carry up to max_events events each.
std::vector<ClaimedLease> claim_events(db::Session& session, const ClaimRequest& request,
                                       const std::vector<Acknowledgement>& acks);
// The same for a parked lane, with no acks: the leases commit without
// waiting for their flush (store/statements.hpp, kClaimEventsParked).
std::vector<ClaimedLease> claim_events_parked(db::Session& session, const ClaimRequest& request);
// The plain acknowledgements that took effect (those of a lost lease do not; due entries are never returned).
std::vector<Lease> ack(db::Session& session, const std::vector<Acknowledgement>& acks);
// The same, queued behind the session's other queued statements (one round
// trip for them all); collect_ack waits for it and returns what ack() would.
std::size_t queue_ack(db::Session& session, const std::vector<Acknowledgement>& acks);
std::vector<Lease> collect_ack(db::Session& session, std::size_t ticket);
// A text[] column sent as its jsonb text; NULL (every name) is empty.
std::optional<std::vector<std::string>> names_at(const db::Row& row, int column);
// A row of act.query_streams (its column order).
Subscription subscription_from(const db::Row& row);
// The subscription row of exactly this target, as this session sees it.
std::optional<Subscription> subscription_row(db::Session& session, std::string_view stream);
std::vector<BlockedLease> block(db::Session& session, const std::vector<BlockedLease>& leases);
std::int32_t reset(db::Session& session, const StreamFilter& filter);

// A call that returns one count (act.defer, reset, unblock, prioritize).
std::int32_t count(db::Session& session, const db::Statement& statement, const db::Params& params);

// The jsonb selector of act.defer / reset / unblock / prioritize / query_streams.
nlohmann::json selector_json(const StreamFilter& filter);
// An empty list of names: no row, so no round trip either.
bool selects_nothing(const StreamFilter& filter) noexcept;

}  // namespace act::reaction_calls
