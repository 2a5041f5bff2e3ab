// act.commit(stream, events, meta, expected_version): append under optimistic
// concurrency, hash-chained, in one call. See docs/reference.md, "Writing".
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "act/core/boundary_locks.hpp"
#include "act/core/errors.hpp"
#include "act/core/text.hpp"
#include "act/core/validation.hpp"
#include "commit_keys.hpp"
#include "counters.hpp"
#include "error_bridge.hpp"
#include "head_cache.hpp"
#include "horizon.hpp"
#include "hosted_partition.hpp"
#include "jsonb_access.hpp"
#include "locks.hpp"
#include "primary_only.hpp"
#include "settings.hpp"
#include "stream_append.hpp"
#include "work_marks.hpp"

namespace act::pg {
namespace {

// bigint since 0.2.0; int in the SQL of older versions, which run against
// this library until ALTER EXTENSION UPDATE.
long long ExpectedVersionArg(FunctionCallInfo fcinfo) {
  const Oid type = Guard([fcinfo] { return get_fn_expr_argtype(fcinfo->flinfo, 3); });
  return type == INT4OID ? static_cast<long long>(PG_GETARG_INT32(3)) : static_cast<long long>(PG_GETARG_INT64(3));
}

// Heads only grow and a cached head is a committed one (head_cache.hpp): a
// commit expecting a version the stream has already passed can never land,
// so it fails before it queues on the stream's lock behind the writer that
// beat it. Concurrent mode only, where the cache is.
void FailIfAlreadyPassed(Datum stream_datum, std::string_view stream, long long expected) {
  const std::optional<StreamHead> cached = CachedHead(stream_datum);
  if (!cached || cached->version <= expected) return;
  CountNow(Counter::kConflicts, 1);
  throw core::ConcurrencyError(std::string(stream), expected, cached->version);
}

std::vector<SentEvent> SentEvents(const std::vector<EventInput>& events) {
  std::vector<SentEvent> sent;
  sent.reserve(events.size());
  for (const EventInput& event : events) sent.push_back(SentEvent{event.name, event.data});
  return sent;
}

}  // namespace
}  // namespace act::pg

using namespace act;

ACT_SQL_FUNCTION(act_commit) {
  if (PG_ARGISNULL(0)) throw core::ValidationError("stream must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::string_view stream = pg::TextArg(fcinfo, 0);
  core::ValidateStreamName(stream);
  pg::RequireHostedStream(stream);
  if (PG_ARGISNULL(1))
    throw core::ValidationError("events for stream " + core::Quoted(stream) + " must not be null",
                                core::sqlstate::kNullValueNotAllowed);
  // Before anything is detoasted or parsed: a huge payload costs nothing more.
  core::ValidateCommitSize(stream, pg::ArgumentBytes(fcinfo, 1), PG_ARGISNULL(2) ? 0 : pg::ArgumentBytes(fcinfo, 2));
  const std::vector<pg::EventInput> events = pg::ReadEvents(stream, pg::JsonbArg(fcinfo, 1));
  Jsonb* meta = PG_ARGISNULL(2) ? pg::EmptyObject() : pg::JsonbArg(fcinfo, 2);
  core::ValidateMeta(stream, pg::RootKind(meta));
  pg::ValidateCorrelation(stream, meta);
  const std::optional<std::string> key = pg::IdempotencyKeyOf(stream, meta);
  const std::optional<long long> expected =
      PG_ARGISNULL(3) ? std::nullopt : std::optional<long long>(pg::ExpectedVersionArg(fcinfo));
  core::ValidateExpectedVersion(stream, expected);

  ReturnSetInfo* result = pg::Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });
  const Datum stream_datum = PG_GETARG_DATUM(0);

  if (!events.empty()) {
    // An empty list only checks: it needs no lock. Concurrent mode needs no
    // fence: readers stay at or below the in-flight horizon instead. The
    // stream's lock before the registry's: a transaction that committed to
    // this stream may go on to subscribe (registry exclusive); and never
    // waiting for the registry on a stream lock just taken, so that a
    // transaction that subscribed may go on to commit (locks.hpp).
    pg::RequirePrimary("act.commit");
    // Shared boundary keys before the fence and the stream (docs/dcb.md):
    // an act.append whose condition these events match waits for this commit.
    core::BoundaryLockPlan boundary;
    for (const pg::EventInput& event : events) boundary.AddEvent(event.name, event.tags);
    pg::TakeBoundaryLocks(boundary.Locks());
    try {
      if (expected) pg::FailIfAlreadyPassed(stream_datum, stream, *expected);
      if (!pg::ConcurrentMode()) pg::TakeCommitFence();
      if (expected && pg::ConcurrentMode()) {
        const std::function<void()> recheck = [stream_datum, stream, &expected] {
          pg::FailIfAlreadyPassed(stream_datum, stream, *expected);
        };
        pg::LockStreamAndRegistry(stream_datum, &recheck);
      } else {
        pg::LockStreamAndRegistry(stream_datum);
      }
    } catch (const core::ConcurrencyError&) {
      // The retry of a keyed commit that landed meets the head it moved.
      if (key && pg::ReplayKeyedCommit(stream_datum, stream, *key, pg::SentEvents(events), result)) return Datum(0);
      throw;
    }
    // Under the stream's lock no commit with this key can be in flight: the
    // key answers before the stream's head is checked (a retry finds it moved,
    // or closed since).
    if (key && pg::ReplayKeyedCommit(stream_datum, stream, *key, pg::SentEvents(events), result)) return Datum(0);
  }
  // With the stream's lock held, a cached head is the committed head.
  pg::StreamHead head = pg::CheckedHead(stream_datum, stream, expected, events.empty());
  if (!events.empty()) {
    pg::PublishInflight();  // before the insert takes ids
    const std::vector<core::EventRef> refs = pg::AppendEvents(stream_datum, stream, head, events, meta, result);
    if (!refs.empty()) pg::NoteIdsTaken(refs.back().id);  // ids follow the array's order
    pg::MarkSubscriptions(stream_datum, stream, refs);
    if (pg::g_notify_enabled) pg::Notify(stream, refs);
    pg::Count(pg::Counter::kCommits, 1);
    pg::Count(pg::Counter::kEvents, refs.size());
  }
  return Datum(0);
}
