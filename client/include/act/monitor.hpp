#pragma once
// The store's figures for operators and dashboards (docs/reference.md,
// "Monitoring"): act.status, act.metrics and act.lag as typed rows, each one
// round trip on a pooled connection; the checkpoints kept and
// act.verify_log. Apart from act::Store, which writes and
// reads events and drives reactions: a monitor only looks.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "act/pool.hpp"

namespace act {

// act.status(): one row of store-wide figures.
struct StoreStatus {
  std::string mode;  // "fenced" or "concurrent"
  std::int64_t horizon = 0;
  std::int64_t max_event_id = 0;
  std::optional<std::int64_t> sealed_size;
  std::int64_t subscriptions = 0;
  std::int64_t with_work = 0;
  std::int64_t blocked = 0;
  std::int64_t leased = 0;
  std::int64_t expired_leases = 0;
  std::optional<std::chrono::microseconds> oldest_work_age;   // none: nothing waits
  std::optional<std::chrono::microseconds> horizon_held_for;  // none: nothing holds the horizon
  std::optional<std::string> seal_stopped;                    // why sealing stopped, if it did
};

// A row of act.metrics(): one Prometheus-shaped sample.
struct MetricSample {
  std::string metric;
  nlohmann::json labels = nlohmann::json::object();
  std::optional<double> value;  // none: no figure (an age with nothing waiting)
};

// A row of act.lag(): a subscription with work, or a blocked one.
struct LagRow {
  std::string stream;
  std::string lane;
  std::int64_t at = -1;  // the watermark
  std::optional<std::int64_t> work_mark;
  std::optional<std::int64_t> waiting_id;  // the oldest event waiting
  std::optional<Timestamp> waiting_since;
  std::optional<std::chrono::microseconds> age;
  bool blocked = false;
  std::optional<std::string> error;
  std::optional<std::string> leased_by;
  std::optional<Timestamp> leased_until;
  std::int32_t retry = 0;
};

// A row of act.checkpoints: a checkpoint act.checkpoint() kept.
struct CheckpointSummary {
  std::int64_t size = 0;
  std::string note;  // the C2SP signed note, as stored
  Timestamp created{};
};

// A row of act.verify_log: an entry whose event does not match it.
struct LogProblem {
  std::int64_t position = 0;
  std::optional<std::int64_t> id;  // none: the entry's event is gone
  std::string problem;
};

class Monitor {
 public:
  explicit Monitor(std::shared_ptr<ConnectionPool> pool);

  StoreStatus status();
  // Ordered by metric, then labels: the samples of one metric together.
  std::vector<MetricSample> metrics();
  // The oldest waiting event first; lane empty: every lane. max_rows below 1
  // is an act::ValidationError from the server.
  std::vector<LagRow> lag(const std::optional<std::string>& lane = std::nullopt, std::int32_t max_rows = 20);
  // The newest first, at most max_rows: one index scan (act.checkpoints' key is the size).
  std::vector<CheckpointSummary> checkpoints(std::int32_t max_rows);
  // act.verify_log over the entries from from_size to to_size (none: the
  // tree's size): each present event's hash recomputed and compared with
  // its entry, so its cost grows with the range. In position order.
  std::vector<LogProblem> verify_log(std::int64_t from_size, std::optional<std::int64_t> to_size);

 private:
  std::shared_ptr<ConnectionPool> pool_;
};

}  // namespace act
