#include "store/reaction_calls.hpp"

#include "act/errors.hpp"
#include "store/event_json.hpp"
#include "store/event_rows.hpp"
#include "store/statements.hpp"

namespace act::reaction_calls {
namespace {

using nlohmann::json;

json subscription_json(const SubscriptionSpec& spec) {
  json entry = {{"stream", spec.stream}, {"priority", spec.priority}, {"lane", spec.lane}};
  if (spec.source) entry["source"] = *spec.source;
  if (spec.names) entry["names"] = *spec.names;
  if (spec.correlated_at) entry["correlated_at"] = *spec.correlated_at;
  return entry;
}

template <class Item, class Convert>
json array_of(const std::vector<Item>& items, Convert convert) {
  json array = json::array();
  for (const Item& item : items) array.push_back(convert(item));
  return array;
}

json lease_json(const Lease& lease) {
  return {
      {"stream", lease.stream}, {"by", lease.by}, {"at", lease.at}, {"retry", lease.retry}, {"lagging", lease.lagging}};
}

Lease lease_from(const db::Row& row) {
  Lease lease;
  lease.stream = row.text(0);
  lease.source = store_rows::optional_text(row, 1);
  lease.at = row.int64(2);
  lease.by = row.text(3);
  lease.retry = row.int32(4);
  lease.lagging = row.boolean(5);
  lease.lane = row.text(6);
  return lease;
}

json acks_json(const std::vector<Acknowledgement>& acks) {
  return array_of(acks, [](const Acknowledgement& entry) {
    json item = lease_json(entry.lease);
    item["at"] = entry.at;
    item.erase("retry");  // a plain ack resets it; only a due entry keeps one
    if (entry.due) {
      item["due"] = to_iso8601(*entry.due);
      if (entry.retry) item["retry"] = *entry.retry;
    }
    return item;
  });
}

std::vector<ClaimedLease> run_claim_events(db::Session& session, const db::Statement& statement,
                                           const ClaimRequest& request, const std::vector<Acknowledgement>& acks) {
  std::vector<ClaimedLease> claimed;
  std::optional<json> carried;
  if (!acks.empty()) carried = acks_json(acks);
  db::Params params;
  params.number(request.lagging)
      .number(request.leading)
      .text(std::string_view(request.by))
      .number(static_cast<std::int64_t>(request.lease.count()))
      .text(request.lane)
      .number(request.max_events)
      .json(carried)
      .number(request.max_bytes)
      .number(static_cast<std::int32_t>(request.wait.count()));
  session.run(statement, params, [&](const db::Row& row) {
    claimed.push_back({lease_from(row), store_rows::committed_list_from_json(row.text(7))});
  });
  return claimed;
}

}  // namespace

std::int32_t count(db::Session& session, const db::Statement& statement, const db::Params& params) {
  std::int32_t rows = 0;
  session.run(statement, params, [&](const db::Row& row) { rows = row.int32(0); });
  return rows;
}

json selector_json(const StreamFilter& filter) {
  // The array form even when empty: the database selects no row for [], every row for {}.
  if (filter.streams) return *filter.streams;
  json selector = json::object();
  if (filter.stream) selector.update({{"stream", *filter.stream}, {"stream_exact", filter.stream_exact}});
  if (filter.source) selector.update({{"source", *filter.source}, {"source_exact", filter.source_exact}});
  if (filter.blocked) selector["blocked"] = *filter.blocked;
  if (filter.lane) selector["lane"] = *filter.lane;
  if (filter.source_matches) selector["source_matches"] = *filter.source_matches;
  return selector;
}

SubscribeResult subscribe(db::Session& session, const std::vector<SubscriptionSpec>& entries,
                          std::optional<std::int64_t> checkpoint, const std::optional<CorrelatorLease>& correlator) {
  const json array = array_of(entries, subscription_json);
  std::optional<json> lease;
  if (correlator) lease = json{{"key", correlator->key}, {"by", correlator->by}, {"millis", correlator->millis}};
  SubscribeResult result;
  session.run(store_sql::kSubscribe, db::Params().json(array).number(checkpoint).json(lease), [&](const db::Row& row) {
    result.subscribed = row.int32(0);
    result.watermark = row.int64(1);
    result.correlated_at = row.int64(2);
    if (!row.is_null(3)) result.correlating = row.boolean(3);
  });
  return result;
}

std::vector<Lease> claim(db::Session& session, std::int32_t lagging, std::int32_t leading, const std::string& by,
                         std::int32_t millis, const std::optional<std::string>& lane) {
  std::vector<Lease> leases;
  db::Params params;
  params.number(lagging).number(leading).text(std::string_view(by)).number(millis).text(lane);
  session.run(store_sql::kClaim, params, [&](const db::Row& row) { leases.push_back(lease_from(row)); });
  return leases;
}

std::vector<ClaimedLease> claim_events(db::Session& session, const ClaimRequest& request,
                                       const std::vector<Acknowledgement>& acks) {
  return run_claim_events(session, store_sql::kClaimEvents, request, acks);
}

std::vector<ClaimedLease> claim_events_parked(db::Session& session, const ClaimRequest& request) {
  return run_claim_events(session, store_sql::kClaimEventsParked, request, {});
}

// A text[] column sent as its jsonb text; NULL (every name) is empty.
std::optional<std::vector<std::string>> names_at(const db::Row& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return nlohmann::json::parse(row.text(column)).get<std::vector<std::string>>();
}

Subscription subscription_from(const db::Row& row) {
  Subscription row_out;
  row_out.stream = row.text(0);
  row_out.source = store_rows::optional_text(row, 1);
  row_out.names = names_at(row, 2);
  row_out.at = row.int64(3);
  row_out.retry = row.int32(4);
  row_out.blocked = row.boolean(5);
  row_out.error = store_rows::optional_text(row, 6);
  row_out.leased_by = store_rows::optional_text(row, 7);
  row_out.leased_until = store_rows::optional_time(row, 8);
  row_out.priority = row.int32(9);
  row_out.lane = row.text(10);
  row_out.deferred_at = store_rows::optional_time(row, 11);
  if (!row.is_null(12)) row_out.correlated_at = row.int64(12);
  return row_out;
}

std::optional<Subscription> subscription_row(db::Session& session, std::string_view stream) {
  std::optional<Subscription> found;
  session.run(store_sql::kQueryStreams,
              db::Params().json(selector_json(StreamFilter::exactly(std::string(stream)))).null().number(1),
              [&](const db::Row& row) { found = subscription_from(row); });
  return found;
}

std::vector<Lease> ack(db::Session& session, const std::vector<Acknowledgement>& acks) {
  std::vector<Lease> acked;
  if (acks.empty()) return acked;
  session.run(store_sql::kAck, db::Params().json(acks_json(acks)),
              [&](const db::Row& row) { acked.push_back(lease_from(row)); });
  return acked;
}

std::size_t queue_ack(db::Session& session, const std::vector<Acknowledgement>& acks) {
  return session.queue(store_sql::kAck.sql, db::Params().json(acks_json(acks)), store_sql::kAck.operation);
}

std::vector<Lease> collect_ack(db::Session& session, std::size_t ticket) {
  std::vector<Lease> acked;
  session.collect(ticket, [&](const db::Row& row) { acked.push_back(lease_from(row)); });
  return acked;
}

std::vector<BlockedLease> block(db::Session& session, const std::vector<BlockedLease>& leases) {
  std::vector<BlockedLease> blocked;
  if (leases.empty()) return blocked;
  const json array = array_of(leases, [](const BlockedLease& entry) {
    json item = lease_json(entry.lease);
    item["error"] = entry.error;
    return item;
  });
  session.run(store_sql::kBlock, db::Params().json(array), [&](const db::Row& row) {
    blocked.push_back(BlockedLease{lease_from(row), std::string(row.text(7))});
  });
  return blocked;
}

bool selects_nothing(const StreamFilter& filter) noexcept { return filter.streams && filter.streams->empty(); }

std::int32_t reset(db::Session& session, const StreamFilter& filter) {
  if (selects_nothing(filter)) return 0;
  return count(session, store_sql::kReset, db::Params().json(selector_json(filter)));
}

}  // namespace act::reaction_calls
