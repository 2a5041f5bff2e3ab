// act::Monitor: act.status, act.metrics, act.lag, the checkpoints kept and act.verify_log as typed rows.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class MonitorTest : public DatabaseTest {
 protected:
  Monitor monitor() { return Monitor(pool_); }

  // A target of its own lane, subscribed to a source with two events: work waits.
  std::string waiting_target(const std::string& lane) {
    const std::string source = stream("source");
    const std::string target = stream("target");
    first_id_ = store_->commit(source, {{"Paid", {}, {}}, {"Shipped", {}, {}}})[0].id;
    store_->subscribe({SubscriptionSpec{target, source, std::nullopt, 0, lane, std::nullopt}});
    return target;
  }

  std::int64_t first_id_ = 0;
};

TEST_F(MonitorTest, StatusCountsWorkBlockedRowsAndLeases) {
  const StoreStatus before = monitor().status();
  const std::string lane = stream("lane");
  const std::string target = waiting_target(lane);
  const StoreStatus waiting = monitor().status();
  EXPECT_TRUE(waiting.mode == "fenced" || waiting.mode == "concurrent") << waiting.mode;
  EXPECT_EQ(waiting.subscriptions, before.subscriptions + 1);
  EXPECT_EQ(waiting.with_work, before.with_work + 1);
  EXPECT_GE(waiting.max_event_id, first_id_ + 1);
  EXPECT_GE(waiting.horizon, first_id_ + 1) << "the commits are visible";
  ASSERT_TRUE(waiting.oldest_work_age.has_value()) << "work waits";
  EXPECT_GE(*waiting.oldest_work_age, 0us);

  const auto leases = store_->claim(1, 0, "worker", 60s, lane);
  ASSERT_EQ(leases.size(), 1u);
  EXPECT_EQ(monitor().status().leased, before.leased + 1);
  store_->block({{leases[0], "boom"}});
  const StoreStatus blocked = monitor().status();
  EXPECT_EQ(blocked.blocked, before.blocked + 1);
  EXPECT_EQ(blocked.with_work, before.with_work) << "a blocked row counts as blocked only";
}

TEST_F(MonitorTest, LagListsARowWithItsOldestWaitingEvent) {
  const std::string lane = stream("lane");
  const std::string target = waiting_target(lane);
  const auto rows = monitor().lag(lane, 10);
  ASSERT_EQ(rows.size(), 1u);
  const LagRow& row = rows[0];
  EXPECT_EQ(row.stream, target);
  EXPECT_EQ(row.lane, lane);
  EXPECT_EQ(row.at, -1);
  EXPECT_EQ(row.waiting_id, first_id_);
  ASSERT_TRUE(row.waiting_since.has_value());
  EXPECT_LE(*row.waiting_since, timestamp_now());
  ASSERT_TRUE(row.age.has_value());
  EXPECT_FALSE(row.blocked);
  EXPECT_FALSE(row.error.has_value());
  EXPECT_FALSE(row.leased_by.has_value());
  EXPECT_FALSE(row.leased_until.has_value());

  const auto leases = store_->claim(1, 0, "worker", 60s, lane);
  ASSERT_EQ(leases.size(), 1u);
  store_->block({{leases[0], "no printer"}});
  const auto blocked = monitor().lag(lane, 10);
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_TRUE(blocked[0].blocked);
  EXPECT_EQ(blocked[0].error, "no printer");
  EXPECT_EQ(blocked[0].leased_by, "worker") << "a blocked row keeps its lease";
  ASSERT_TRUE(blocked[0].leased_until.has_value());
  EXPECT_GT(*blocked[0].leased_until, timestamp_now());
  EXPECT_TRUE(monitor().lag(stream("no-such-lane"), 10).empty());
}

TEST_F(MonitorTest, LagRefusesFewerThanOneRow) {
  try {
    (void)monitor().lag(std::nullopt, 0);
    FAIL() << "max_rows 0 was taken";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.sqlstate(), "22023");
    EXPECT_NE(std::string(error.what()).find("max_rows"), std::string::npos) << error.what();
  }
}

TEST_F(MonitorTest, MetricsAgreeWithStatusAndComeGroupedByMetric) {
  waiting_target(stream("lane"));
  const StoreStatus status = monitor().status();
  const auto samples = monitor().metrics();
  ASSERT_FALSE(samples.empty());
  const auto total = std::find_if(samples.begin(), samples.end(), [](const MetricSample& sample) {
    return sample.metric == "pg_act_subscriptions" && sample.labels.empty();
  });
  ASSERT_NE(total, samples.end());
  ASSERT_TRUE(total->value.has_value());
  EXPECT_EQ(*total->value, static_cast<double>(status.subscriptions));
  for (const MetricSample& sample : samples) EXPECT_TRUE(sample.labels.is_object()) << sample.metric;
  EXPECT_TRUE(std::is_sorted(samples.begin(), samples.end(), [](const MetricSample& a, const MetricSample& b) {
    return a.metric < b.metric;
  })) << "the samples of one metric come together";
}

}  // namespace
}  // namespace act::test
