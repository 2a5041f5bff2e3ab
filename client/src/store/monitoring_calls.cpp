// Monitor: act.status, act.metrics and act.lag, and a router's
// act.status_by_partition, each one round trip on a pooled connection.
#include <stdexcept>

#include "act/errors.hpp"
#include "act/monitor.hpp"
#include "db/session.hpp"
#include "store/event_rows.hpp"
#include "store/statements.hpp"

namespace act {
namespace {

std::optional<std::chrono::microseconds> optional_micros(const db::Row& row, int column) {
  if (row.is_null(column)) return std::nullopt;
  return std::chrono::microseconds(row.int64(column));
}

using store_rows::optional_int64;

// act.status()'s columns from `first` on (ACT_STATUS_COLUMNS).
StoreStatus status_figures(const db::Row& row, int first) {
  StoreStatus figures;
  figures.mode = row.text(first);
  figures.horizon = row.int64(first + 1);
  figures.max_event_id = row.int64(first + 2);
  figures.sealed_size = optional_int64(row, first + 3);
  figures.subscriptions = row.int64(first + 4);
  figures.with_work = row.int64(first + 5);
  figures.blocked = row.int64(first + 6);
  figures.leased = row.int64(first + 7);
  figures.expired_leases = row.int64(first + 8);
  figures.oldest_work_age = optional_micros(row, first + 9);
  figures.horizon_held_for = optional_micros(row, first + 10);
  figures.seal_stopped = store_rows::optional_text(row, first + 11);
  return figures;
}

}  // namespace

Monitor::Monitor(std::shared_ptr<ConnectionPool> pool) : pool_(std::move(pool)) {
  if (!pool_) throw std::invalid_argument("Monitor: no connection pool");
}

StoreStatus Monitor::status() {
  std::optional<StoreStatus> status;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kStatus, db::Params(),
                           [&](const db::Row& row) { status = status_figures(row, 0); });
  if (!status) throw StoreError("act.status", {}, "act.status returned no row");
  return *status;
}

std::vector<MetricSample> Monitor::metrics() {
  std::vector<MetricSample> samples;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kMetrics, db::Params(), [&](const db::Row& row) {
    MetricSample sample;
    sample.metric = row.text(0);
    if (!row.is_null(1)) sample.labels = nlohmann::json::parse(row.text(1));
    if (!row.is_null(2)) sample.value = row.float64(2);
    samples.push_back(std::move(sample));
  });
  return samples;
}

std::vector<LagRow> Monitor::lag(const std::optional<std::string>& lane, std::int32_t max_rows) {
  std::vector<LagRow> rows;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kLag, db::Params().text(lane).number(max_rows), [&](const db::Row& row) {
    LagRow lag;
    lag.stream = row.text(0);
    lag.lane = row.text(1);
    lag.at = row.int64(2);
    lag.work_mark = optional_int64(row, 3);
    lag.waiting_id = optional_int64(row, 4);
    lag.waiting_since = store_rows::optional_time(row, 5);
    lag.age = optional_micros(row, 6);
    lag.blocked = row.boolean(7);
    lag.error = store_rows::optional_text(row, 8);
    lag.leased_by = store_rows::optional_text(row, 9);
    lag.leased_until = store_rows::optional_time(row, 10);
    lag.retry = row.int32(11);
    rows.push_back(std::move(lag));
  });
  return rows;
}

bool Monitor::is_router() {
  bool router = false;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kIsRouter, db::Params(), [&](const db::Row& row) { router = row.boolean(0); });
  return router;
}

std::vector<PartitionStatus> Monitor::status_by_partition() {
  std::vector<PartitionStatus> rows;
  ConnectionPool::Lease connection = pool_->acquire();
  connection.session().run(store_sql::kStatusByPartition, db::Params(), [&](const db::Row& row) {
    PartitionStatus partition;
    partition.partition = row.int32(0);
    partition.reachable = row.boolean(1);
    partition.error = store_rows::optional_text(row, 2);
    if (partition.reachable) partition.status = status_figures(row, 3);
    rows.push_back(std::move(partition));
  });
  return rows;
}

}  // namespace act
