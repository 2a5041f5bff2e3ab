#pragma once
// What the correlate / drain / settle loops report (what they did, and what
// failed), and how workers run.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace act {

// A reaction that failed (its handler threw), or a worker that could not
// reach the database (target empty): what settle() and drain() report, what
// AppBuilder::on_failure hears and what a worker logs without a listener.
struct ReactionFailure {
  std::string target;                    // the target stream (its subscription row)
  std::optional<std::int64_t> event_id;  // the event whose handler threw
  std::string event_name;
  std::string error;
  std::int32_t retry = 0;  // the attempt that failed, from 0
  bool blocked = false;    // the retry budget is spent: the stream waits for an operator
  std::string reaction;    // the reaction's name, or the projection's; empty when no handler ran
  std::string stream;      // the failing event's own stream (empty without an event)
};

// One line: what failed, where, and whether the stream is blocked.
std::string to_string(const ReactionFailure& failure);

struct DrainResult {
  std::int32_t leased = 0;    // streams claimed
  std::int64_t fetched = 0;   // events read
  std::int64_t handled = 0;   // events whose every reaction succeeded
  std::int32_t advanced = 0;  // streams whose watermark moved
  std::int32_t blocked = 0;
  std::int32_t failed = 0;    // streams whose handler threw this cycle
  std::int32_t lost = 0;      // acknowledgements refused: the lease had passed to another worker
  // Each failed attempt, in order: the first kMaxReported (`failed` counts them all).
  std::vector<ReactionFailure> failures;
  static constexpr std::size_t kMaxReported = 100;

  bool progressed() const noexcept { return advanced > 0 || blocked > 0; }
  void add_failure(ReactionFailure failure) {
    ++failed;
    if (failures.size() < kMaxReported) failures.push_back(std::move(failure));
  }
  DrainResult& operator+=(const DrainResult& other) {
    leased += other.leased;
    fetched += other.fetched;
    handled += other.handled;
    advanced += other.advanced;
    blocked += other.blocked;
    failed += other.failed;
    lost += other.lost;
    for (const ReactionFailure& failure : other.failures) {
      if (failures.size() >= kMaxReported) break;
      failures.push_back(failure);
    }
    return *this;
  }
};

struct CorrelateResult {
  bool scanned = false;        // false: another worker holds the correlator lease
  std::int64_t events = 0;     // events read
  std::int32_t subscribed = 0; // new target streams
  std::int32_t marked = 0;     // targets given work
  std::int64_t checkpoint = -1;
};

struct SettleOptions {
  std::chrono::milliseconds debounce{10};  // lets a burst of commits land first
  int max_passes = 1000;
  // Once settled, throw SettleError if any attempt failed (App::settle_or_throw).
  bool throw_on_failure = false;
};

struct SettleResult {
  int passes = 0;
  std::int32_t subscribed = 0;
  DrainResult drained;

  // What failed on the way (drained.failures): empty when every handler succeeded.
  const std::vector<ReactionFailure>& failures() const noexcept { return drained.failures; }
};

struct WorkerOptions {
  // The longest one wait for a commit lasts (act.wait / a notification);
  // also how soon shutdown() reaches the waiting thread.
  std::chrono::milliseconds wait_slice{250};
  // Reconnecting after a lost connection backs off from min to max.
  std::chrono::milliseconds reconnect_min{50};
  std::chrono::milliseconds reconnect_max{5'000};
  // LISTEN act_commit when the database sends notifications (act.notify on).
  bool listen = true;
  // How often dynamic targets are looked for without a wake-up.
  std::chrono::milliseconds correlate_every{1'000};
  // Run only these lanes' workers (empty: every lane); start() throws
  // std::invalid_argument for a lane the app does not declare.
  std::set<std::string> only_lanes{};
};

struct RebuildProgress {
  std::string target;
  std::int64_t at = -1;     // the watermark reached
  std::int64_t head = -1;   // the work mark it is catching up to
  std::int64_t applied = 0; // events applied since the rebuild started
  bool blocked = false;     // the rebuild stopped: a handler failed for good
  std::optional<std::string> error;
};

}  // namespace act
