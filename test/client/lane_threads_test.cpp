// Lane::threads: the streams one cycle claimed are handled side by side,
// each stream's events still strictly in order on one thread.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "support/counter_app.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class LaneThreadsTest : public DatabaseTest {
 protected:
  State<Counter> counter_ = counter_state();
  Recorder recorder_;
};

Lane threaded_lane(const std::string& name, std::int32_t threads) {
  Lane lane{name};
  lane.threads = threads;
  return lane;
}

TEST_F(LaneThreadsTest, TwoStreamsOfOneCycleRunAtOnce) {
  const Lane lane = threaded_lane(stream("two"), 2);
  const std::string first_source = stream();
  const std::string second_source = stream();
  // Each handler waits (bounded) for the other to start: one after the
  // other, the first would wait out its 20 s and see only itself.
  std::atomic<int> started{0};
  std::mutex mutex;
  std::vector<bool> met_the_other;
  const auto meet = [&](const Incremented&, ReactionContext&) {
    ++started;
    const bool met = eventually([&] { return started.load() == 2; }, 20s);
    const std::lock_guard lock(mutex);
    met_the_other.push_back(met);
  };
  App app = act::app(pool_)
                .with(counter_)
                .lane(lane)
                .on<Incremented>("Incremented")
                .to(Route{stream("first"), first_source, 0, lane.name})
                .handle("meet_first", meet)
                .on<Incremented>("Incremented")
                .to(Route{stream("second"), second_source, 0, lane.name})
                .handle("meet_second", meet)
                .build();
  app.do_action("increment", {first_source, kAnn, {}}, Increment{1});
  app.do_action("increment", {second_source, kAnn, {}}, Increment{1});
  const SettleResult settled = app.settle();

  EXPECT_EQ(settled.drained.handled, 2);
  const std::lock_guard lock(mutex);
  EXPECT_EQ(met_the_other, (std::vector<bool>{true, true})) << "both handlers started before either finished";
}

TEST_F(LaneThreadsTest, EachStreamKeepsItsOrderAcrossThreads) {
  const Lane lane = threaded_lane(stream("many"), 4);
  const std::string prefix = stream("ordered");
  App app = act::app(pool_)
                .with(counter_)
                .lane(lane)
                .on<Incremented>("Incremented")
                .to([prefix, lane = lane.name](const Committed& event) -> std::optional<Route> {
                  if (!event.stream.starts_with(prefix)) return std::nullopt;
                  return Route{event.stream + "-seen", event.stream, 0, lane};
                })
                .handle("record",
                        [&](const Incremented&, ReactionContext& context) {
                          recorder_.record(context.target(), context.event());
                          std::this_thread::yield();  // lets the other streams' threads in between
                        })
                .build();
  std::map<std::string, std::vector<std::int64_t>> committed;
  for (int round = 0; round < 25; ++round) {
    for (int s = 0; s < 6; ++s) {
      const std::string name = prefix + "-" + std::to_string(s);
      for (const Committed& event : app.do_action("increment_twice", {name, kAnn, {}}, Increment{1}).events)
        committed[name + "-seen"].push_back(event.id);
    }
  }
  app.settle();

  EXPECT_EQ(recorder_.total(), 300u) << "each event handled once";
  EXPECT_EQ(recorder_.all(), committed) << "every stream saw its events in commit order";
}

TEST_F(LaneThreadsTest, ALaneNeedsAtLeastOneThread) {
  EXPECT_THROW(act::app(pool_).with(counter_).lane(threaded_lane("none", 0)).build(), std::invalid_argument);
}

}  // namespace
}  // namespace act::test
