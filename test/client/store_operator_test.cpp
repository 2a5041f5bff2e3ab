// The store's operator calls: act.release and the server's reading of a time.
#include <gtest/gtest.h>

#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class StoreOperatorTest : public DatabaseTest {};

TEST_F(StoreOperatorTest, ReleaseDropsTheLeaseAndKeepsTheRest) {
  const std::string source = stream();
  const std::string lane = stream("lane");
  const std::string free_target = stream("free");
  const std::string held_target = stream("held");
  store_->commit(source, {{"Paid", {}, {}}});
  store_->subscribe({SubscriptionSpec{held_target, source, std::nullopt, 0, lane, std::nullopt},
                     SubscriptionSpec{free_target, source, std::nullopt, 0, lane, std::nullopt}});
  const auto leases = store_->claim(2, 0, "worker-1", 60s, lane);
  ASSERT_EQ(leases.size(), 2u);
  store_->block({{leases[0].stream == held_target ? leases[0] : leases[1], "boom"}});

  EXPECT_EQ(store_->release(StreamFilter::named({free_target})), 1);
  const Subscription freed = subscription(free_target);
  EXPECT_FALSE(freed.leased_by.has_value());
  EXPECT_FALSE(freed.leased_until.has_value());
  EXPECT_EQ(freed.at, -1) << "the watermark stays";
  EXPECT_TRUE(subscription(held_target).leased_by.has_value()) << "only the selected row";
  EXPECT_EQ(store_->release(StreamFilter::named({free_target})), 0) << "a free row does not change";

  StreamFilter blocked;
  blocked.blocked = true;
  blocked.lane = lane;
  EXPECT_EQ(store_->release(blocked), 1);
  const Subscription held = subscription(held_target);
  EXPECT_FALSE(held.leased_by.has_value());
  EXPECT_TRUE(held.blocked) << "release keeps the block";
  EXPECT_EQ(held.error, "boom");

  const auto sent = statements(*pool_);
  EXPECT_EQ(store_->release(StreamFilter::named({})), 0);
  EXPECT_EQ(statements(*pool_), sent) << "an empty list selects nothing and sends nothing";
  ASSERT_EQ(store_->claim(2, 0, "worker-2", 60s, lane).size(), 1u) << "the freed row is claimable at once";
}

TEST_F(StoreOperatorTest, ServerTimeReadsWhatTheServerReads) {
  EXPECT_EQ(store_->server_time("2100-01-01T00:00:00Z"), parse_timestamp("2100-01-01T00:00:00Z"));
  EXPECT_EQ(store_->server_time("2100-01-01 02:00:00.25+02"), parse_timestamp("2100-01-01T00:00:00.25Z"));
  EXPECT_EQ(store_->server_time("epoch"), Timestamp{});
  try {
    (void)store_->server_time("yesterday-ish");
    FAIL() << "a time the server cannot read was taken";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.sqlstate(), "22007");
    EXPECT_NE(std::string(error.what()).find("yesterday-ish"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace act::test
