// A parked lane's claim commits its leases without waiting for their flush
// (store/statements.hpp, kClaimEventsParked), while every other claim waits.
// Runs only from test/run-parked-claim.sh: on a cluster whose durable commits
// wait for a synchronous standby that never comes, a claim that waits for
// its flush never returns, and one that does not returns at once.
// test/run-client.sh leaves this suite out.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <string>
#include <vector>

#include "react/parked_claim.hpp"
#include "store/reaction_calls.hpp"
#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

// The sessions under test ask for durable commits: the cluster's default
// (local) keeps the fixture's own commits from waiting.
std::string durable(const std::string& conninfo) { return conninfo + " options='-c synchronous_commit=on'"; }

ClaimRequest one_stream(const std::string& by) {
  ClaimRequest request;
  request.lagging = 1;
  request.leading = 0;
  request.by = by;
  request.lease = 60s;
  request.max_events = 100;
  return request;
}

TEST(ParkedClaimDurability, AParkedClaimReturnsWithoutWaitingForTheFlushADrainClaimWaitsFor) {
  TestDatabase database("ParkedClaimDurability");
  ASSERT_NE(database.sql("SELECT current_setting('synchronous_standby_names')"), "")
      << "run through test/run-parked-claim.sh: durable commits must wait for a standby";
  database.sql("SELECT count(*) FROM act.commit('src-1', '[{\"name\": \"E\"}]')");
  database.sql("SELECT count(*) FROM act.commit('src-2', '[{\"name\": \"E\"}]')");
  database.sql(
      "SELECT count(*) FROM act.subscribe('[{\"stream\": \"t-1\", \"source\": \"src-1\"}, "
      "{\"stream\": \"t-2\", \"source\": \"src-2\"}]')");

  // The drain's claim waits for the standby: its lease is written locally,
  // but the call does not return. Cancelled, it reports the local commit.
  std::atomic<std::uint64_t> statements{0};
  db::Session drain(durable(database.conninfo()), statements);
  auto waiting =
      std::async(std::launch::async, [&] { return reaction_calls::claim_events(drain, one_stream("drain"), {}); });
  EXPECT_EQ(waiting.wait_for(2s), std::future_status::timeout) << "a durable claim waited for its standby";
  drain.cancel();
  waiting.wait();
  EXPECT_EQ(database.sql("SELECT leased_by FROM act.subscriptions WHERE stream = 't-1'"), "drain");

  // The parked claim takes the next stream and returns while the standby is still absent.
  react::ParkedClaim parked;
  auto claimed =
      std::async(std::launch::async, [&] { return parked.claim(durable(database.conninfo()), one_stream("parked")); });
  const bool returned = claimed.wait_for(10s) == std::future_status::ready;
  if (!returned) parked.interrupt();  // a cancel ends the standby's wait, and the test
  ASSERT_TRUE(returned) << "the parked claim waited for the flush";
  const std::vector<ClaimedLease> leases = claimed.get();
  ASSERT_EQ(leases.size(), 1U);
  EXPECT_EQ(leases[0].lease.stream, "t-2");
  EXPECT_EQ(leases[0].events.size(), 1U);
  EXPECT_EQ(database.sql("SELECT leased_by FROM act.subscriptions WHERE stream = 't-2'"), "parked");
  EXPECT_EQ(database.sql("SELECT count(*) FROM act.subscriptions WHERE leased_by IS NOT NULL"), "2");
  parked.close();
}

}  // namespace
}  // namespace act::test
