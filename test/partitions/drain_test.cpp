// Reactions over every partition: a fixed target with a pattern source has
// a row in each partition, a dynamic one a row per stream in the stream's
// partition; each partition's app claims its own rows. Every event is
// handled exactly once per reaction and each stream's events in order,
// by the background workers and by settle().
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/counter.hpp"
#include "support/partitions.hpp"
#include "support/recorder.hpp"

namespace act::test {
namespace {

constexpr int kStreams = 40;
constexpr int kEventsEach = 3;

class DrainTest : public PartitionsTest {
 protected:
  // Per reaction ("fixed", "dynamic"): each stream's versions in the order handled.
  using Handled = std::map<std::string, std::map<std::string, std::vector<std::int32_t>>>;

  // Both reactions, for the streams prefix-<n> only, in a lane of their own.
  App recording(const std::string& prefix) {
    const Lane lane{unique("cpp-drain")};
    const std::string everything = unique("cpp-everything");
    const std::string names = unique("record");  // the correlator's key is made of them
    const auto record = [this](const std::string& reaction) {
      return [this, reaction](const Incremented&, ReactionContext& context) {
        {
          const std::lock_guard lock(mutex_);
          handled_[reaction][context.event().stream].push_back(context.event().version);
        }
        recorder_.record(reaction, context.event());
      };
    };
    return counter_app(map(), lane)
        .on<Incremented>("Incremented")
        .to(Route{everything, "^" + prefix + "-", 0, lane.name})
        .handle(names + "-fixed", record("fixed"))
        .on<Incremented>("Incremented")
        .to([prefix, lane](const Committed& event) -> std::optional<Route> {
          if (!event.stream.starts_with(prefix + "-")) return std::nullopt;
          return Route{event.stream, event.stream, 0, lane.name};
        })
        .handle(names + "-dynamic", record("dynamic"))
        .build();
  }

  // kEventsEach increments on each of kStreams streams, one stream after another in turn.
  void commit(App& app, const std::string& prefix) {
    for (int round = 0; round < kEventsEach; ++round)
      for (int s = 0; s < kStreams; ++s)
        app.do_action("increment", {prefix + "-" + std::to_string(s), kBot, {}}, Increment{1});
  }

  void expect_each_event_once_in_order(const std::string& prefix) {
    const std::lock_guard lock(mutex_);
    const std::vector<std::int32_t> in_order{0, 1, 2};
    std::set<std::int32_t> partitions_seen;
    for (const char* reaction : {"fixed", "dynamic"}) {
      const auto& streams = handled_[reaction];
      EXPECT_EQ(streams.size(), static_cast<std::size_t>(kStreams)) << reaction;
      for (int s = 0; s < kStreams; ++s) {
        const std::string stream = prefix + "-" + std::to_string(s);
        const auto found = streams.find(stream);
        EXPECT_EQ(found == streams.end() ? std::vector<std::int32_t>{} : found->second, in_order)
            << reaction << " " << stream;
        partitions_seen.insert(partition_of(stream, partitions()));
      }
    }
    EXPECT_EQ(partitions_seen.size(), static_cast<std::size_t>(partitions())) << "the streams span every partition";
  }

  std::mutex mutex_;
  Handled handled_;
  Recorder recorder_;
};

TEST_F(DrainTest, TheWorkersOfEveryPartitionHandleEachEventOnce) {
  const std::string prefix = unique("cpp-drain");
  App app = recording(prefix);
  app.start();
  commit(app, prefix);
  const std::size_t expected = 2u * kStreams * kEventsEach;
  EXPECT_TRUE(recorder_.wait_for(expected)) << recorder_.total() << " of " << expected << " handled";
  app.shutdown();
  EXPECT_EQ(app.settle().drained.handled, 0) << "the workers left nothing";
  EXPECT_EQ(recorder_.total(), expected);
  expect_each_event_once_in_order(prefix);
}

TEST_F(DrainTest, SettleHandlesEachEventOfEveryPartitionOnce) {
  const std::string prefix = unique("cpp-drain");
  App app = recording(prefix);
  commit(app, prefix);
  const SettleResult settled = app.settle();
  EXPECT_TRUE(settled.failures().empty()) << to_string(settled.failures().front());
  EXPECT_GE(settled.subscribed, kStreams) << "the dynamic targets, each in its stream's partition";
  EXPECT_EQ(recorder_.total(), 2u * kStreams * kEventsEach);
  expect_each_event_once_in_order(prefix);
  EXPECT_EQ(app.settle().drained.handled, 0);
}

}  // namespace
}  // namespace act::test
