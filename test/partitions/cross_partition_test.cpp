// Reactions of one partition acting on a stream of another: the action is
// routed to that partition's app (never refused there with 22023), loads in
// the handler are too, and an idempotency key keeps a retried handler from
// writing twice downstream (the two commits are in two databases).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/counter.hpp"
#include "support/partitions.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class CrossPartitionTest : public PartitionsTest {
 protected:
  // An app on every partition whose reaction to Incremented on source
  // (partition 0) runs forward; a lane of its own.
  template <class F>
  App forwarding(const std::string& source, F forward) {
    const Lane lane{unique("cpp-cross")};
    const std::string target = unique("cpp-forward");
    return counter_app(map(), lane)
        .on<Incremented>("Incremented")
        .to(Route{target, source, 0, lane.name})
        .options(ReactionOptions{3, true, Backoff{1ms, 1ms, false}})
        .handle("forward", forward)
        .build();
  }

  std::vector<std::string> downstream_events(const std::string& stream) {
    return sql(partition_of(stream, partitions()),
               "SELECT data ->> 'by' FROM act.events WHERE stream = '" + stream + "' ORDER BY version");
  }
};

TEST_F(CrossPartitionTest, AReactionCommitsToAStreamOfAnotherPartition) {
  const std::string source = stream_in(0, "cpp-upstream");
  const std::string downstream = stream_in(1, "cpp-downstream");
  std::atomic<int> seen_before{-1};
  App app = forwarding(source, [&](const Incremented& incremented, ReactionContext& context) {
    seen_before = context.load(counter_, downstream).state.count;  // read on partition 1
    context.do_action("increment", {downstream, kBot, {}}, Increment{incremented.by * 10});
  });
  const ActionResult upstream = app.do_action("increment", {source, kBot, {}}, Increment{2});

  const SettleResult settled = app.settle();
  EXPECT_TRUE(settled.failures().empty()) << to_string(settled.failures().front());
  EXPECT_EQ(settled.drained.handled, 1);
  EXPECT_EQ(seen_before, 0);
  EXPECT_EQ(downstream_events(downstream), std::vector<std::string>{"20"}) << "written once, on partition 1";
  EXPECT_EQ(sql(1,
                "SELECT (meta -> 'causation' -> 'event' ->> 'stream') || ' ' || (meta ->> 'correlation') "
                "FROM act.events WHERE stream = '" +
                    downstream + "'"),
            std::vector<std::string>{source + " " + upstream.events.front().meta.value("correlation", "")})
      << "caused by the upstream event, in its correlation";
  EXPECT_EQ(sql(0, "SELECT count(*) FROM act.events WHERE stream = '" + downstream + "'"),
            std::vector<std::string>{"0"});
  EXPECT_EQ(app.load(counter_, downstream).state.count, 20);
}

// Partition 1 reacts by committing to partition 0, whose own reaction then
// has work: one settle() gets to the end of the chain, though partition 0
// was settled before partition 1 made that work.
TEST_F(CrossPartitionTest, OneSettleFollowsAChainBackToAnEarlierPartition) {
  const std::string source = stream_in(1, "cpp-upstream");
  const std::string downstream = stream_in(0, "cpp-downstream");
  const Lane lane{unique("cpp-chain")};
  const std::string forwarder = unique("cpp-forward");
  const std::string counter = unique("cpp-count");
  std::atomic<int> counted{0};
  App app = counter_app(map(), lane)
                .on<Incremented>("Incremented")
                .to(Route{forwarder, source, 0, lane.name})
                .handle("forward",
                        [&](const Incremented&, ReactionContext& context) {
                          context.do_action("increment", {downstream, kBot, {}}, Increment{1});
                        })
                .on<Incremented>("Incremented")
                .to(Route{counter, downstream, 0, lane.name})
                .handle("count", [&](const Incremented&, ReactionContext&) { ++counted; })
                .build();
  app.do_action("increment", {source, kBot, {}}, Increment{1});
  const SettleResult settled = app.settle();
  EXPECT_TRUE(settled.failures().empty()) << to_string(settled.failures().front());
  EXPECT_EQ(counted, 1);
  EXPECT_EQ(settled.drained.handled, 2);
}

TEST_F(CrossPartitionTest, ARetriedHandlerWritesOnceDownstreamWithAnIdempotencyKey) {
  const std::string source = stream_in(0, "cpp-upstream");
  const std::string downstream = stream_in(1, "cpp-downstream");
  std::atomic<int> attempts{0};
  std::mutex mutex;
  std::vector<std::int64_t> answered;  // the downstream id each attempt was answered with
  App app = forwarding(source, [&](const Incremented&, ReactionContext& context) {
    // Stream and version name the event in every partition (ids are per partition).
    const std::string key = "forward-" + context.event().stream + "-" + std::to_string(context.event().version);
    const ActionResult done = context.do_action("increment", {downstream, kBot, {}}, Increment{1},
                                                DoOptions{.correlation = {}, .idempotency_key = key});
    {
      const std::lock_guard lock(mutex);
      answered.push_back(done.events.front().id);
    }
    if (attempts++ == 0) throw std::runtime_error("failed after the downstream commit");
  });
  app.do_action("increment", {source, kBot, {}}, Increment{1});

  ASSERT_TRUE(eventually([&] { return app.settle().drained.handled > 0; })) << "the retry succeeds";
  EXPECT_EQ(attempts, 2);
  EXPECT_EQ(downstream_events(downstream), std::vector<std::string>{"1"}) << "one commit downstream";
  ASSERT_EQ(answered.size(), 2u);
  EXPECT_EQ(answered[0], answered[1]) << "the retry is answered with the first commit";
}

// The same without a key: the retry writes again. What the key prevents is real.
TEST_F(CrossPartitionTest, WithoutAKeyARetriedHandlerWritesTwice) {
  const std::string source = stream_in(0, "cpp-upstream");
  const std::string downstream = stream_in(1, "cpp-downstream");
  std::atomic<int> attempts{0};
  App app = forwarding(source, [&](const Incremented&, ReactionContext& context) {
    context.do_action("increment", {downstream, kBot, {}}, Increment{1});
    if (attempts++ == 0) throw std::runtime_error("failed after the downstream commit");
  });
  app.do_action("increment", {source, kBot, {}}, Increment{1});

  ASSERT_TRUE(eventually([&] { return app.settle().drained.handled > 0; }));
  EXPECT_EQ(attempts, 2);
  EXPECT_EQ(downstream_events(downstream), (std::vector<std::string>{"1", "1"}));
}

}  // namespace
}  // namespace act::test
