#pragma once
// Reactions: handlers that run after events commit, per target stream, in
// event order, at least once (projections: exactly once, see projection.hpp).
//
//   auto app = act::app(pool).with(tickets)
//       .on<Opened>("Opened")                                   // the event's own stream by default
//           .handle("auto_assign", [](const Opened& opened, act::ReactionContext& context) {
//             context.do_action("assign", {context.event().stream, bot}, Assign{pick(opened)});
//           })
//       .on<Closed>("Closed").to("closures")                     // a fixed target: marked by the database at commit
//           .handle("count_closure", ...)
//       .on<Opened>("Opened").to([](const act::Committed& e) {   // a function of the event: found by correlate
//             return std::optional<act::Route>(act::Route{"team-" + e.data["team"].get<std::string>(), e.stream});
//           })
//           .handle("notify_team", ...)
//       .build();
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "act/detail/state_model.hpp"
#include "act/event.hpp"
#include "act/snapshot.hpp"
#include "act/state.hpp"
#include "act/subscriptions.hpp"
#include "act/target.hpp"

namespace act {

struct ActionResult;
struct DoOptions;
struct Query;

namespace react {
class AppPort;
}
namespace app_detail {
struct ContextAccess;
}

// Where a reaction delivers an event: the target stream (the subscription
// whose watermark tracks it) and the streams whose events it reads.
struct Route {
  Route(std::string target_stream, std::optional<std::string> source_streams = std::nullopt, std::int32_t claim_priority = 0,
        std::string lane_name = std::string(kDefaultLane))
      : target(std::move(target_stream)), source(std::move(source_streams)), priority(claim_priority),
        lane(std::move(lane_name)) {}
  Route() = default;

  std::string target;
  std::optional<std::string> source;  // empty: every stream; a stream name; or a regex
  std::int32_t priority = 0;          // claimed first within its lane
  std::string lane = std::string(kDefaultLane);
  // The target's name in an earlier version of the app: when the app starts,
  // the target takes over that row's watermark and the row goes
  // (docs/reactions.md, "Moving a reaction"). Fixed routes only.
  std::optional<std::string> renamed_from;
};

struct ReactionOptions {
  int max_retries = 3;         // attempts after the first before the stream is blocked
  bool block_on_error = true;  // false: retry for ever
  // Without a backoff a failed attempt keeps its lease until it expires, so
  // the lane's lease time spaces the retries.
  std::optional<Backoff> backoff;
};

// A partition of the targets with a drain of its own, so a slow lane never
// holds up a fast one.
struct Lane {
  std::string name;
  std::chrono::milliseconds lease{10'000};  // how long a claimed stream stays with its worker
  std::int32_t streams = 10;                // streams claimed per cycle
  std::int32_t events = 100;                // events read per stream per cycle
  std::chrono::milliseconds cycle{1'000};   // a worker drains at least this often, woken or not
  // Claimed streams of one cycle handled at once, each on one thread, its
  // events in order (1: one stream after another). Handlers of different
  // streams then run concurrently, so they must be thread-safe.
  std::int32_t threads = 1;
  // Bytes of events read per stream per cycle: a stream whose events are
  // large gets fewer a cycle (at least one), and never fails the claim.
  std::int32_t bytes = 16 * 1024 * 1024;
};

// Thrown (by ReactionContext::defer_until or a handler) to hand an event back
// until a time: the stream's watermark stays before it and the stream is not
// claimed again until then. Not an error: it spends no retry.
struct DeferSignal {
  Timestamp due;
};

// What a reaction handler gets besides its event's payload.
class ReactionContext {
 public:
  // stopping: the flag of whoever runs the handler (a worker, or settle's caller).
  ReactionContext(react::AppPort& app, const Committed& event, const std::string& target,
                  const std::atomic<bool>& stopping) noexcept
      : app_(app), event_(event), target_(target), stopping_(stopping) {}

  const Committed& event() const noexcept { return event_; }
  // The target stream this reaction runs for.
  const std::string& target() const noexcept { return target_; }

  // An action caused by this event: its events carry the event's correlation
  // and causation.event = {id, name, stream}. On a partition set it runs in
  // the app of the target stream's partition, which may be another database:
  // then it is not undone if the handler fails later, and the retry runs it
  // again. An idempotency key derived from the event (or an expected
  // version) makes that retry find the first commit instead of writing twice.
  ActionResult do_action(std::string_view action, const Target& target, const nlohmann::json& payload);
  // The same with options (an empty correlation: the event's).
  ActionResult do_action(std::string_view action, const Target& target, const nlohmann::json& payload,
                         const DoOptions& options);

  // The stream's current state (on a partition set, from its partition).
  // Fresh by default: a handler often runs because another process just
  // committed, so a cache hit is brought up to date with the store
  // (LoadOptions{.fresh = false} trusts it as it is).
  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const LoadOptions& options = LoadOptions{.fresh = true}) {
    return detail::typed<S>(load_any(state.model(), stream, options));
  }
  // The state as reader may see its personal data (see App::load).
  template <class S>
  Snapshot<S> load(const State<S>& state, std::string_view stream, const Actor& reader) {
    return detail::typed<S>(load_for(state.model(), stream, reader));
  }
  // Reads this app's database (on a partition set: the handler's partition).
  std::int64_t query(const Query& query, const std::function<void(const Committed&)>& on_event);

  [[noreturn]] void defer_until(Timestamp due) const { throw DeferSignal{due}; }

  // True once the app is shutting down: a long handler may finish early
  // (what it did not handle is handled after the restart).
  bool stopping() const noexcept { return stopping_.load(std::memory_order_relaxed); }

 private:
  friend struct app_detail::ContextAccess;  // the library's own reactions (autoclose)

  detail::AnySnapshot load_any(const detail::StateModel& state, std::string_view stream, const LoadOptions& options);
  detail::AnySnapshot load_for(const detail::StateModel& state, std::string_view stream, const Actor& reader);

  react::AppPort& app_;
  const Committed& event_;
  const std::string& target_;
  const std::atomic<bool>& stopping_;
};

}  // namespace act
