// App's routing, checked in the partition databases themselves:
// actions land in the partition of their stream, loads read it there, and
// two apps racing on one stream keep every version once.
#include <gtest/gtest.h>

#include <numeric>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/counter.hpp"
#include "support/partitions.hpp"

namespace act::test {
namespace {

class RoutingTest : public PartitionsTest {
 protected:
  App counters(CounterOptions options = {}) {
    counter_ = counter_state(options);
    return counter_app(map()).build();
  }
};

TEST_F(RoutingTest, DoActionLandsEachStreamInTheDatabaseOfItsPartition) {
  App app = counters();
  ASSERT_EQ(app.partitions(), partitions());
  const std::string prefix = unique("cpp-route");
  std::vector<std::set<std::string>> expected(static_cast<std::size_t>(partitions()));
  for (int i = 0; i < 200; ++i) {
    const std::string stream = prefix + "-" + std::to_string(i);
    const ActionResult done = app.do_action("increment", {stream, kBot, {}}, Increment{i + 1});
    ASSERT_EQ(done.version, 0) << stream;
    expected[static_cast<std::size_t>(partition_of(stream, partitions()))].insert(stream);
  }
  for (std::int32_t p = 0; p < partitions(); ++p) {
    const std::vector<std::string> landed =
        sql(p, "SELECT stream FROM act.events WHERE stream LIKE '" + prefix + "-%' ORDER BY stream");
    const std::set<std::string>& mine = expected[static_cast<std::size_t>(p)];
    EXPECT_FALSE(mine.empty()) << "200 streams reach every partition";
    EXPECT_EQ(landed.size(), mine.size()) << "one event per stream, in partition " << p;
    EXPECT_EQ(std::set<std::string>(landed.begin(), landed.end()), mine) << "partition " << p;
    EXPECT_EQ(sql(p, "SELECT count(*) FROM act.events WHERE stream LIKE '" + prefix +
                         "-%' AND act.partition_of(stream) <> " + std::to_string(p)),
              std::vector<std::string>{"0"})
        << "the database agrees each stream is its own";
  }
}

TEST_F(RoutingTest, LoadsReadTheStreamsPartition) {
  App writer = counters();
  const std::string prefix = unique("cpp-load");
  std::vector<std::pair<std::string, ActionResult>> seconds;
  for (int i = 1; i <= 20; ++i) {
    const std::string stream = prefix + "-" + std::to_string(i);
    writer.do_action("increment", {stream, kBot, {}}, Increment{i});
    seconds.emplace_back(stream, writer.do_action("increment", {stream, kBot, {}}, Increment{100}));
  }
  App reader = counters();  // another process: a cold cache, pools of its own
  for (const auto& [stream, second] : seconds) {
    const int first_by = std::stoi(stream.substr(prefix.size() + 1));
    EXPECT_EQ(&reader.stores().store_for(stream).pool(), reader.stores().map().pool_for(stream).get());
    const Snapshot<Counter> now = reader.load(counter_, stream);
    EXPECT_FALSE(now.cache_hit);
    EXPECT_EQ(now.state.count, first_by + 100) << stream;
    EXPECT_EQ(now.version, 1);
    EXPECT_EQ(now.id, second.id) << "the id is the partition's own";
    const Snapshot<Counter> before = reader.load(counter_, stream, AsOf{second.events.front().id, std::nullopt});
    EXPECT_EQ(before.state.count, first_by) << "time travel by the partition's ids";
    EXPECT_EQ(writer.load(counter_, stream, LoadOptions{.fresh = true}).state.count, first_by + 100);
  }
}

TEST_F(RoutingTest, TwoAppsRacingOnOneStreamWriteEveryVersionOnce) {
  constexpr int kPerWriter = 40;
  const std::string stream = unique("cpp-race");
  std::vector<App> apps;
  apps.push_back(counters({.retries = 200}));
  apps.push_back(counters({.retries = 200}));
  std::vector<std::string> errors(apps.size());
  std::vector<std::thread> writers;
  for (std::size_t w = 0; w < apps.size(); ++w) {
    writers.emplace_back([&, w] {
      try {
        for (int i = 0; i < kPerWriter; ++i) apps[w].do_action("increment", {stream, kBot, {}}, Increment{1});
      } catch (const std::exception& error) {
        errors[w] = error.what();
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  for (const std::string& error : errors) EXPECT_EQ(error, "") << "every action commits, retried after a conflict";

  const int total = kPerWriter * static_cast<int>(apps.size());
  std::vector<int> expected(static_cast<std::size_t>(total));
  std::iota(expected.begin(), expected.end(), 0);
  std::string versions;
  for (int v : expected) versions += (versions.empty() ? "" : ",") + std::to_string(v);
  const std::int32_t home = partition_of(stream, partitions());
  EXPECT_EQ(sql(home, "SELECT string_agg(version::text, ',' ORDER BY version) FROM act.events WHERE stream = '" +
                          stream + "'"),
            std::vector<std::string>{versions});
  for (std::int32_t p = 0; p < partitions(); ++p) {
    if (p == home) continue;
    EXPECT_EQ(sql(p, "SELECT count(*) FROM act.events WHERE stream = '" + stream + "'"), std::vector<std::string>{"0"});
  }
  EXPECT_EQ(apps[0].load(counter_, stream, LoadOptions{.fresh = true}).state.count, total);
  std::uint64_t conflicts = 0;
  for (App& app : apps) conflicts += app.stats().conflicts;
  RecordProperty("conflicts", std::to_string(conflicts));
}

}  // namespace
}  // namespace act::test
