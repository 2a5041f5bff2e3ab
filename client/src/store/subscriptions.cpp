// Store: the reaction-side calls, each one round trip on a pooled connection.
#include <stdexcept>

#include "act/errors.hpp"
#include "act/store.hpp"
#include "db/session.hpp"
#include "db/transaction.hpp"
#include "store/event_rows.hpp"
#include "store/reaction_calls.hpp"
#include "store/statements.hpp"

namespace act {
namespace {

std::int32_t count_of(ConnectionPool& pool, const db::Statement& statement, const db::Params& params) {
  ConnectionPool::Lease connection = pool.acquire();
  return reaction_calls::count(connection.session(), statement, params);
}

}  // namespace

bool is_pattern(std::string_view source) noexcept {
  return source.find_first_of("^$.*+?()[]{}|\\") != std::string_view::npos;
}

SubscribeResult Store::subscribe(const std::vector<SubscriptionSpec>& entries, std::optional<std::int64_t> checkpoint,
                                 const std::optional<CorrelatorLease>& correlator) {
  ConnectionPool::Lease connection = pool_->acquire();
  return reaction_calls::subscribe(connection.session(), entries, checkpoint, correlator);
}

Widened Store::widen(std::string_view stream, const std::vector<std::string>& names) {
  Widened widened;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kWiden, db::Params().text(stream).json(nlohmann::json(names)),
                           [&](const db::Row& row) {
                             widened.stream = row.text(0);
                             widened.names = reaction_calls::names_at(row, 1);
                             widened.added = reaction_calls::names_at(row, 2).value_or(std::vector<std::string>{});
                             widened.at = row.int64(3);
                             if (!row.is_null(4)) widened.correlated_at = row.int64(4);
                           });
  return widened;
}

TakenOver Store::take_over(const SubscriptionSpec& successor, std::string_view former, bool keep_name) {
  TakenOver taken;
  ConnectionPool::Lease connection = pool_->acquire();
  db::Transaction transaction(connection.session());
  reaction_calls::subscribe(connection.session(), {successor}, std::nullopt, std::nullopt);
  db::Params params;
  params.text(std::string_view(successor.stream)).text(former).boolean(keep_name);
  connection.session().run(store_sql::kTakeOver, params, [&](const db::Row& row) {
    taken.stream = row.text(0);
    if (!row.is_null(1)) taken.source = row.text(1);
    taken.at = row.int64(2);
    taken.former = row.text(3);
    if (!row.is_null(4)) taken.former_source = row.text(4);
  });
  transaction.commit();
  return taken;
}

std::vector<Lease> Store::claim(std::int32_t lagging, std::int32_t leading, const std::string& by,
                                std::chrono::milliseconds lease, const std::optional<std::string>& lane) {
  ConnectionPool::Lease connection = pool_->acquire();
  return reaction_calls::claim(connection.session(), lagging, leading, by, static_cast<std::int32_t>(lease.count()),
                               lane);
}

std::vector<ClaimedLease> Store::claim_events(const ClaimRequest& request, const std::vector<Acknowledgement>& acks) {
  ConnectionPool::Lease connection = pool_->acquire();
  return reaction_calls::claim_events(connection.session(), request, acks);
}

std::vector<Lease> Store::ack(const std::vector<Acknowledgement>& acks) {
  if (acks.empty()) return {};
  ConnectionPool::Lease connection = pool_->acquire();
  return reaction_calls::ack(connection.session(), acks);
}

std::vector<BlockedLease> Store::block(const std::vector<BlockedLease>& leases) {
  if (leases.empty()) return {};
  ConnectionPool::Lease connection = pool_->acquire();
  return reaction_calls::block(connection.session(), leases);
}

std::int32_t Store::defer(const StreamFilter& filter, Timestamp until) {
  if (reaction_calls::selects_nothing(filter)) return 0;
  db::Params params;
  params.json(reaction_calls::selector_json(filter)).time(until);
  return count_of(*pool_, store_sql::kDefer, params);
}

std::int32_t Store::reset(const StreamFilter& filter) {
  if (reaction_calls::selects_nothing(filter)) return 0;
  ConnectionPool::Lease connection = pool_->acquire();
  return reaction_calls::reset(connection.session(), filter);
}

std::int32_t Store::unblock(const StreamFilter& filter) {
  if (reaction_calls::selects_nothing(filter)) return 0;
  return count_of(*pool_, store_sql::kUnblock, db::Params().json(reaction_calls::selector_json(filter)));
}

std::int32_t Store::prioritize(const StreamFilter& filter, std::int32_t priority) {
  if (reaction_calls::selects_nothing(filter)) return 0;
  return count_of(*pool_, store_sql::kPrioritize,
                  db::Params().json(reaction_calls::selector_json(filter)).number(priority));
}

std::int32_t Store::release(const StreamFilter& filter) {
  if (reaction_calls::selects_nothing(filter)) return 0;
  return count_of(*pool_, store_sql::kRelease, db::Params().json(reaction_calls::selector_json(filter)));
}

std::vector<Subscription> Store::query_streams(const StreamFilter& filter, const std::optional<std::string>& after,
                                               std::int32_t max_streams) {
  // act.query_streams takes a filter object only.
  if (filter.streams) throw std::invalid_argument("query_streams: select by fields (stream, lane, ...), not by a list");
  db::Params params;
  params.json(reaction_calls::selector_json(filter)).text(after).number(max_streams);
  std::vector<Subscription> rows;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kQueryStreams, params,
                           [&](const db::Row& row) { rows.push_back(reaction_calls::subscription_from(row)); });
  return rows;
}

}  // namespace act
