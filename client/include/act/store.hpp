#pragma once
// The typed store: one method per SQL function of the act schema
// (docs/reference.md), each one round trip on a pooled connection.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/boundary.hpp"
#include "act/event.hpp"
#include "act/pool.hpp"
#include "act/stored_event.hpp"
#include "act/subscriptions.hpp"

namespace act {

// A read of the log (act.query). Absent filters are left out.
struct Query {
  std::optional<std::string> stream;
  bool stream_exact = true;  // false: stream is a POSIX regex
  std::optional<std::int64_t> after;   // ids, exclusive
  std::optional<std::int64_t> before;
  std::optional<std::vector<std::string>> names;
  std::optional<Timestamp> created_after;   // exclusive
  std::optional<Timestamp> created_before;
  std::optional<std::string> correlation;
  std::optional<std::int64_t> limit;  // most events delivered in all; empty or 0 = no limit
  bool backward = false;
  bool with_snaps = false;  // include __snapshot__ events (one exact stream: resume at the latest)
};

// Which streams act.query_stats describes and what it adds to each.
struct StatsQuery {
  // These streams (an empty list selects none), or when not given:
  std::optional<std::vector<std::string>> streams;
  std::optional<std::string> stream;    // one stream or pattern (not given either: every stream)
  bool stream_exact = true;
  bool tail = false;
  bool count = false;
  bool names = false;
  std::vector<std::string> exclude;     // event names left out
  std::optional<std::int64_t> before;   // ids below
  std::optional<std::string> after;     // stream names after (C collation), for paging
  std::optional<std::int32_t> limit;    // most streams
};

struct StreamStats {
  std::string stream;
  Committed head;                 // without pii and hash
  std::optional<Committed> tail;  // when asked for
  std::optional<std::int64_t> count;
  std::optional<nlohmann::json> names;  // {"EventName": count}
};

// One act.truncate target: a full close (tombstone, or a snapshot seed when
// snapshot is set) or, with before, a retention window.
struct TruncateTarget {
  std::string stream;
  std::optional<nlohmann::json> snapshot;
  std::optional<nlohmann::json> meta;
  std::optional<Timestamp> before;
  std::optional<std::int64_t> max_id;
};

struct Truncated {
  std::string stream;
  std::int64_t deleted = 0;
  std::int64_t id = 0;  // the seed or boundary event
  std::int32_t version = 0;
  std::string name;
  std::optional<Timestamp> before;
};

struct ChainCheck {
  std::string stream;
  std::int64_t events = 0;
  bool valid = false;
  std::optional<std::int32_t> first_bad_version;
};

// What act.claim_events claims: act.claim's arguments, and the most events a row carries.
struct ClaimRequest {
  std::int32_t lagging = 0;
  std::int32_t leading = 0;
  std::string by;
  std::chrono::milliseconds lease{10'000};
  std::optional<std::string> lane;  // empty: any lane
  std::int32_t max_events = 100;
  // A stream's batch stops before this many bytes of events (its first event always comes).
  std::int32_t max_bytes = 16 * 1024 * 1024;
  // Finding nothing, the server waits up to this for a commit and claims
  // again (at most one minute; 0: no wait).
  std::chrono::milliseconds wait{0};
};

// A claimed stream and its events after the lease's `at`, from the row's own
// source and names, up to the horizon (no hash: claim_events does not send it).
struct ClaimedLease {
  Lease lease;
  std::vector<Committed> events;
};

struct StoreOptions {
  // Events per act.query round trip; reads never hold more than one page.
  std::int32_t page_size = 1000;
};

class Store {
 public:
  explicit Store(std::shared_ptr<ConnectionPool> pool, StoreOptions options = {});

  // Appends events atomically. expected_version: empty = no check, -1 = the
  // stream must not exist, N = its head must be N. Returns the new rows.
  // A null meta is sent as {}, like a null event data. A meta with
  // "idempotency_key" makes the commit idempotent: sent again (a reply lost),
  // it returns the rows the first one wrote (docs/reference.md, act.commit).
  std::vector<Committed> commit(std::string_view stream, const std::vector<Message>& events,
                                const nlohmann::json& meta = nlohmann::json::object(),
                                std::optional<std::int32_t> expected_version = std::nullopt);

  // The events the commit carrying meta.idempotency_key `key` wrote to the
  // stream, by version; none when there is no such commit.
  std::vector<Committed> commit_by_key(std::string_view stream, std::string_view key);

  // Streams the matching events to on_event in order, one page per round
  // trip; returns how many were delivered. The connection is back in the pool
  // while on_event runs, so it may call the store itself.
  std::int64_t query(const Query& query, const std::function<void(const Committed&)>& on_event);

  // Consistency boundaries (act/boundary.hpp, docs/dcb.md). read streams
  // the events `query` matches with id > after, in id order and never
  // above the horizon, to on_event, one page per round trip; returns how
  // many. append writes events to one or more streams, all or nothing, in
  // array order, unless the condition fails: AppendConditionError when an
  // event matches its query after its `after`, ConcurrencyError for an
  // expected version. Returns the new rows, in id order, with their tags.
  std::int64_t read(const EventQuery& query, std::int64_t after, const std::function<void(const Committed&)>& on_event);
  std::vector<Committed> append(const std::vector<StreamMessage>& events,
                                const std::optional<AppendCondition>& condition = std::nullopt,
                                const nlohmann::json& meta = nlohmann::json::object());

  std::int32_t version(std::string_view stream);
  std::int64_t max_event_id();
  std::int64_t horizon();
  // Waits until the horizon passes `after` or the timeout ends; returns the horizon.
  std::int64_t wait(std::int64_t after, std::chrono::milliseconds timeout);

  std::vector<StreamStats> query_stats(const StatsQuery& query = {});
  std::vector<Truncated> truncate(const std::vector<TruncateTarget>& targets);
  // A full close of one stream only while its head is still at version
  // `head`: one REPEATABLE READ transaction checks the head and truncates,
  // so a commit that lands meanwhile is a ConcurrencyError, never deleted unseen.
  Truncated truncate_at(const TruncateTarget& target, std::int32_t head);
  std::int64_t forget_pii(std::string_view stream);
  std::vector<ChainCheck> verify(std::optional<std::string> stream = std::nullopt);

  // Reactions (docs/reference.md, "Subscriptions and the drain").
  SubscribeResult subscribe(const std::vector<SubscriptionSpec>& entries,
                            std::optional<std::int64_t> checkpoint = std::nullopt,
                            const std::optional<CorrelatorLease>& correlator = std::nullopt);
  // Adds event names to the existing row of `stream` and back-fills its work
  // mark for them; events of the added names at or below its watermark are
  // not handed over (docs/reference.md, act.widen). A stream with no row is
  // an act::ValidationError.
  Widened widen(std::string_view stream, const std::vector<std::string>& names);
  // Subscribes `successor` and has it take over the watermark (retry, block,
  // deferral) of the row `former`, which goes; with keep_name the successor
  // then takes former's name. One transaction (docs/reference.md,
  // act.take_over). A missing former is an act::ValidationError.
  TakenOver take_over(const SubscriptionSpec& successor, std::string_view former, bool keep_name);
  // Leases up to lagging + leading streams with work to `by`; lane empty: any lane.
  std::vector<Lease> claim(std::int32_t lagging, std::int32_t leading, const std::string& by,
                           std::chrono::milliseconds lease, const std::optional<std::string>& lane = std::nullopt);
  // One drain cycle's call: `acks` are applied first, as ack() applies them
  // (a lost lease's entry is dropped, and which were is not reported), then
  // streams are claimed as claim() claims them, each with its events.
  std::vector<ClaimedLease> claim_events(const ClaimRequest& request, const std::vector<Acknowledgement>& acks = {});
  // Returns the plain acknowledgements that took effect: an entry whose lease
  // was lost is dropped, a due entry is applied but not returned.
  std::vector<Lease> ack(const std::vector<Acknowledgement>& acks);
  std::vector<BlockedLease> block(const std::vector<BlockedLease>& leases);
  // Each returns how many rows it changed; StreamFilter::named({}) changes
  // none (and sends nothing).
  std::int32_t defer(const StreamFilter& filter, Timestamp until);
  std::int32_t reset(const StreamFilter& filter);
  std::int32_t unblock(const StreamFilter& filter);
  std::int32_t prioritize(const StreamFilter& filter, std::int32_t priority);
  // Rows ordered by stream (C collation) after `after`; max_streams 0: all.
  // The filter's fields only: a list of streams is std::invalid_argument.
  std::vector<Subscription> query_streams(const StreamFilter& filter = {}, const std::optional<std::string>& after = {},
                                          std::int32_t max_streams = 100);

  // query() with each event's JSON as stored (act/stored_event.hpp).
  std::int64_t query_stored(const Query& query, const std::function<void(const StoredEvent&)>& on_event);

  // Operator calls (actctl). Drops the leases of the selected rows
  // (act.release): any worker may claim them at once, at their watermark;
  // retries and blocks stay. Returns how many rows it changed.
  std::int32_t release(const StreamFilter& filter);
  // A timestamptz as the server reads it: any of its input formats
  // ("tomorrow", a date alone), in the session's time zone. Text it cannot
  // read is an act::ValidationError.
  Timestamp server_time(std::string_view text);
  // Returns once every commit acknowledged to any connection is durable,
  // also those made with synchronous_commit off (a bulk load): a commit
  // that waits for its flush makes the WAL before it durable too.
  void wait_durable();

  ConnectionPool& pool() noexcept { return *pool_; }
  const std::shared_ptr<ConnectionPool>& shared_pool() const noexcept { return pool_; }

 private:
  std::shared_ptr<ConnectionPool> pool_;
  StoreOptions options_;
};

// CREATE EXTENSION IF NOT EXISTS pg_act (needs a role allowed to create it).
void ensure_extension(ConnectionPool& pool);

}  // namespace act
