// The typed reaction calls of the store: subscribe, widen, claim, ack, block,
// defer, unblock, query_streams.
#include <gtest/gtest.h>

#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class StoreReactionTest : public DatabaseTest {
 protected:
  Subscription row(const std::string& target) {
    const auto rows = store_->query_streams(StreamFilter::exactly(target));
    EXPECT_EQ(rows.size(), 1u);
    return rows.empty() ? Subscription{} : rows.front();
  }
};

TEST_F(StoreReactionTest, ALeaseGoesFromClaimToAckAndBlock) {
  const std::string source = stream();
  const std::string target = stream("t");
  const std::string lane = stream("lane");
  const auto committed = store_->commit(source, {{"Paid", {}, {}}, {"Shipped", {}, {}}, {"Paid", {}, {}}});
  SubscriptionSpec spec{target, source, std::vector<std::string>{"Paid"}, 2, lane, std::nullopt};
  const SubscribeResult subscribed = store_->subscribe({spec});
  EXPECT_EQ(subscribed.subscribed, 1);
  EXPECT_FALSE(subscribed.correlating.has_value()) << "no lease was asked for";
  EXPECT_EQ(row(target).correlated_at, committed[2].id) << "back-filled from the last Paid";

  const auto leases = store_->claim(1, 0, "worker-1", 30s, lane);
  ASSERT_EQ(leases.size(), 1u);
  EXPECT_EQ(leases[0].stream, target);
  EXPECT_EQ(leases[0].source, source);
  EXPECT_EQ(leases[0].at, -1);
  EXPECT_EQ(leases[0].retry, 0);
  EXPECT_TRUE(leases[0].lagging);
  EXPECT_EQ(leases[0].lane, lane);
  EXPECT_TRUE(store_->claim(1, 0, "worker-2", 30s, lane).empty()) << "one holder at a time";

  Lease stolen = leases[0];
  stolen.by = "worker-2";
  EXPECT_TRUE(store_->ack({{stolen, committed[0].id, std::nullopt, std::nullopt}}).empty()) << "not the holder";
  const auto acked = store_->ack({{leases[0], committed[0].id, std::nullopt, std::nullopt}});
  ASSERT_EQ(acked.size(), 1u);
  EXPECT_EQ(acked[0].at, committed[0].id);
  EXPECT_EQ(acked[0].retry, -1);

  const auto again = store_->claim(1, 0, "worker-3", 30s, lane);
  ASSERT_EQ(again.size(), 1u);
  const auto blocked = store_->block({{again[0], "no printer"}});
  ASSERT_EQ(blocked.size(), 1u);
  EXPECT_EQ(blocked[0].error, "no printer");
  EXPECT_TRUE(row(target).blocked);
  EXPECT_EQ(store_->unblock(StreamFilter::named({target})), 1);
  EXPECT_FALSE(row(target).blocked);
  EXPECT_EQ(row(target).at, committed[0].id) << "unblock keeps the watermark";
}

TEST_F(StoreReactionTest, WidenAddsNamesAndBackfillsTheMark) {
  const std::string source = stream();
  const std::string target = stream("t");
  const auto committed = store_->commit(source, {{"Paid", {}, {}}, {"Shipped", {}, {}}});
  store_->subscribe({SubscriptionSpec{target, source, std::vector<std::string>{"Paid"}, 0, "default", std::nullopt}});
  const Widened widened = store_->widen(target, {"Shipped", "Refunded"});
  EXPECT_EQ(widened.stream, target);
  EXPECT_EQ(widened.names, (std::vector<std::string>{"Paid", "Shipped", "Refunded"}));
  EXPECT_EQ(widened.added, (std::vector<std::string>{"Shipped", "Refunded"}));
  EXPECT_EQ(widened.at, -1);
  EXPECT_EQ(widened.correlated_at, committed[1].id) << "back-filled from the Shipped";
  EXPECT_TRUE(store_->widen(target, {"Paid"}).added.empty()) << "nothing to add";
  EXPECT_THROW(store_->widen(stream("none"), {"Paid"}), ValidationError) << "no such subscription";
}

TEST_F(StoreReactionTest, ADeferredStreamIsNotClaimedUntilDue) {
  const std::string source = stream();
  const std::string target = stream("t");
  const std::string lane = stream("lane");
  store_->commit(source, {{"Paid", {}, {}}});
  store_->subscribe({SubscriptionSpec{target, source, std::nullopt, 0, lane, std::nullopt}});
  const Timestamp due = std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now()) + 1h;
  EXPECT_EQ(store_->defer(StreamFilter::exactly(target), due), 1);
  EXPECT_EQ(row(target).deferred_at, due);
  EXPECT_TRUE(store_->claim(1, 1, "worker-1", 30s, lane).empty());
}

TEST_F(StoreReactionTest, AnEmptyListOfNamesSelectsNothing) {
  const std::string source = stream();
  const std::string lane = stream("lane");
  const std::vector<std::string> targets = {stream("t"), stream("t")};
  store_->commit(source, {{"Paid", {}, {}}});
  for (const std::string& target : targets)
    store_->subscribe({SubscriptionSpec{target, source, std::nullopt, 0, lane, std::nullopt}});
  for (const auto& lease : store_->claim(2, 0, "worker-1", 30s, lane)) store_->block({{lease, "stuck"}});
  ASSERT_TRUE(row(targets[0]).blocked);
  ASSERT_TRUE(row(targets[1]).blocked);

  const StreamFilter none = StreamFilter::named({});
  const Timestamp due = std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now()) + 1h;
  EXPECT_EQ(store_->prioritize(none, 9), 0);
  EXPECT_EQ(store_->defer(none, due), 0);
  EXPECT_EQ(store_->unblock(none), 0);
  EXPECT_EQ(store_->reset(none), 0);
  for (const std::string& target : targets) {
    const Subscription untouched = row(target);
    EXPECT_EQ(untouched.priority, 0) << target;
    EXPECT_FALSE(untouched.deferred_at.has_value()) << target;
    EXPECT_TRUE(untouched.blocked) << target;
    EXPECT_EQ(untouched.error, "stuck") << target;
  }
  EXPECT_THROW(store_->query_streams(none), std::invalid_argument) << "query_streams takes fields, not a list";
}

TEST_F(StoreReactionTest, QueryStreamsPagesByName) {
  const std::string lane = stream("lane");
  std::vector<SubscriptionSpec> specs;
  for (const char* name : {"b", "a", "c"}) specs.push_back({lane + "-" + name, std::nullopt, std::nullopt, 0, lane, std::nullopt});
  EXPECT_EQ(store_->subscribe(specs).subscribed, 3);
  StreamFilter in_lane;
  in_lane.lane = lane;
  const auto first = store_->query_streams(in_lane, std::nullopt, 2);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].stream, lane + "-a");
  EXPECT_EQ(first[1].stream, lane + "-b");
  const auto rest = store_->query_streams(in_lane, first.back().stream, 2);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].stream, lane + "-c");
}

}  // namespace
}  // namespace act::test
