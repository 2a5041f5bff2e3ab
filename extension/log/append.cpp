// act.append(events, condition, meta): a multi-stream append whose condition
// (a consistency boundary, docs/dcb.md) is checked under locks that make the
// check and the insert one step.
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "act/core/boundary_locks.hpp"
#include "act/core/boundary_query.hpp"
#include "act/core/errors.hpp"
#include "act/core/validation.hpp"
#include "arrays.hpp"
#include "boundary_sql.hpp"
#include "condition_match.hpp"
#include "counters.hpp"
#include "error_bridge.hpp"
#include "horizon.hpp"
#include "hosted_partition.hpp"
#include "json_args.hpp"
#include "jsonb_access.hpp"
#include "locks.hpp"
#include "primary_only.hpp"
#include "settings.hpp"
#include "spi.hpp"
#include "stream_append.hpp"
#include "work_marks.hpp"

namespace act::pg {
namespace {

// One stream the append writes or only reads, with what it expects of it.
struct StreamEntry {
  Datum datum = 0;
  bool written = false;
  std::optional<long long> expected;
  StreamHead head;
};

// The raised error of a failed condition: 40001, so every client retries the
// decision (read again, decide again).
[[noreturn]] void FailCondition(int64 id, int64 item, std::optional<int64> after) {
  CountNow(Counter::kConflicts, 1);
  const nlohmann::json detail = {
      {"after", after ? nlohmann::json(*after) : nlohmann::json()}, {"id", id}, {"item", item}};
  throw core::SqlError(core::sqlstate::kSerializationFailure,
                       "append condition failed: event " + std::to_string(id) + " matches item " +
                           std::to_string(item) + " after " + (after ? std::to_string(*after) : std::string("null")),
                       detail.dump());
}

// Run under the boundary locks: every writer of a matching event has either
// committed (and the latest snapshot sees it) or waits for this transaction.
// The latest snapshot, not the transaction's: under REPEATABLE READ a match
// the transaction cannot see still fails the append.
void CheckCondition(const core::Query& query, std::optional<int64> after) {
  if (query.items.empty()) return;
  if (const std::optional<ConditionMatch> match = FirstConditionMatch(query, after.value_or(-1)))
    FailCondition(match->id, match->item, after);
}

void RequireReachableAfter(std::optional<int64> after) {
  if (!after) return;
  SpiSession spi;
  const int64 horizon = Horizon();
  spi.Finish();
  if (*after > horizon)
    throw core::ValidationError("condition.after " + std::to_string(*after) + " is above act.horizon() " +
                                std::to_string(horizon) + ": no read could have reached it");
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_append) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("events must not be null", core::sqlstate::kNullValueNotAllowed);
  core::ValidateArgumentSize("events and meta", pg::ArgumentBytes(fcinfo, 0) + (PG_ARGISNULL(2) ? 0 : pg::ArgumentBytes(fcinfo, 2)));
  const std::vector<pg::EventInput> events = pg::ReadStreamEvents(pg::JsonbArg(fcinfo, 0));
  const core::AppendCondition condition = core::ParseCondition(pg::JsonArgument(fcinfo, 1, "condition"));
  if (condition.fail_if_events_match)
    pg::RequireHostedBoundary(*condition.fail_if_events_match, "condition.fail_if_events_match");
  Jsonb* meta = PG_ARGISNULL(2) ? pg::EmptyObject() : pg::JsonbArg(fcinfo, 2);
  if (pg::RootKind(meta) != core::JsonKind::kObject)
    throw core::ValidationError("meta must be a JSON object, not " +
                                std::string(core::JsonKindName(pg::RootKind(meta))));
  pg::ValidateCorrelation("(act.append)", meta);

  // Every stream in name order: the order their locks are taken in.
  std::map<std::string_view, pg::StreamEntry> streams;
  for (const pg::EventInput& event : events) streams[event.stream].written = true;
  for (const auto& [stream, expected] : condition.expected_versions) streams[stream].expected = expected;
  for (auto& [stream, entry] : streams) {
    pg::RequireHostedStream(stream);
    entry.datum = pg::MakeText(stream);
  }
  pg::RequireReachableAfter(condition.after);

  ReturnSetInfo* result = pg::Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });
  if (!events.empty()) {
    pg::RequirePrimary("act.append");
    core::BoundaryLockPlan boundary;
    for (const pg::EventInput& event : events) boundary.AddEvent(event.name, event.tags);
    const bool keyed = !condition.fail_if_events_match || boundary.AddCondition(*condition.fail_if_events_match);
    if (condition.fail_if_events_match) {
      // A holder of a key may be the writer that fails this condition: fail
      // as soon as it lands rather than queue behind it (locks.hpp).
      const std::function<void()> recheck = [&condition] {
        pg::CheckCondition(*condition.fail_if_events_match, condition.after);
      };
      pg::TakeBoundaryLocks(boundary.Locks(), &recheck);
    } else {
      pg::TakeBoundaryLocks(boundary.Locks());
    }
    // An item that matches any event has no key: every writer is excluded
    // instead (the registry lock, which every commit holds shared).
    if (!keyed) pg::TakeRegistryExclusive();
    if (!pg::ConcurrentMode()) pg::TakeCommitFence();
    for (auto& [stream, entry] : streams) pg::LockStreamAndRegistry(entry.datum);
  }
  if (condition.fail_if_events_match) pg::CheckCondition(*condition.fail_if_events_match, condition.after);
  for (auto& [stream, entry] : streams)
    entry.head = pg::CheckedHead(entry.datum, stream, entry.expected, events.empty());
  if (events.empty()) return Datum(0);

  pg::PublishInflight();  // before the insert takes ids
  // Runs of consecutive events of one stream, in array order: ids follow the array.
  int64 last_id = -1;
  std::size_t start = 0;
  while (start < events.size()) {
    std::size_t end = start + 1;
    while (end < events.size() && events[end].stream == events[start].stream) ++end;
    const std::string_view stream = events[start].stream;
    pg::StreamEntry& entry = streams[stream];
    const std::span<const pg::EventInput> run(events.data() + start, end - start);
    const std::vector<core::EventRef> refs = pg::AppendEvents(entry.datum, stream, entry.head, run, meta, result);
    if (!refs.empty()) last_id = refs.back().id;
    pg::MarkSubscriptions(entry.datum, stream, refs);
    if (pg::g_notify_enabled) pg::Notify(stream, refs);
    start = end;
  }
  if (last_id >= 0) pg::NoteIdsTaken(last_id);
  pg::Count(pg::Counter::kCommits, 1);
  pg::Count(pg::Counter::kEvents, events.size());
  return Datum(0);
}
