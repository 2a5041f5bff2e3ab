#pragma once
// The store's figures for operators and dashboards (docs/reference.md,
// "Monitoring"): act.status, act.metrics and act.lag as typed rows, each one
// round trip on a pooled connection. Apart from act::Store, which writes and
// reads events and drives reactions: a monitor only looks. The log's
// checkpoints and act.verify_log are act::LogStore's.
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

// A row of a router's act.status_by_partition() (docs/scale-out.md): one
// partition's act.status(), or why the router could not reach it.
struct PartitionStatus {
  std::int32_t partition = 0;
  bool reachable = false;
  std::optional<std::string> error;   // the partition's error, when not reachable
  std::optional<StoreStatus> status;  // its figures, when reachable
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

class Monitor {
 public:
  explicit Monitor(std::shared_ptr<ConnectionPool> pool);

  StoreStatus status();
  // Ordered by metric, then labels: the samples of one metric together.
  std::vector<MetricSample> metrics();
  // The oldest waiting event first; lane empty: every lane. max_rows below 1
  // is an act::ValidationError from the server.
  std::vector<LagRow> lag(const std::optional<std::string>& lane = std::nullopt, std::int32_t max_rows = 20);

  // Whether the database is a router of partitions (sql/router/pg_act_router.sql):
  // it has act.status_by_partition() and not the pg_act extension. A router
  // has none of pg_act's own calls but act.metrics().
  bool is_router();
  // A router's act.status_by_partition(), by partition: a partition that
  // cannot be reached is a row with its error, never an exception.
  std::vector<PartitionStatus> status_by_partition();

 private:
  std::shared_ptr<ConnectionPool> pool_;
};

}  // namespace act
