// Projection versions on a partition set: each partition builds version 2
// beside version 1 in its own database, the switch moves every partition's
// reading schema, and side effects run once per event, by version 1 before
// the switch and by version 2 after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>

#include "support/counter.hpp"
#include "support/partitions.hpp"

namespace act::test {
namespace {

class ProjectionVersionTest : public PartitionsTest {
 protected:
  void SetUp() override {
    PartitionsTest::SetUp();
    prefix_ = unique("cpp-versions");
    name_ = prefix_ + "-projection";
    table_ = projection_reading_schema(prefix_);  // an identifier
  }

  // Version 1 counts each event once, version 2 twice: a reader tells them apart.
  Projection version(std::int32_t number) {
    const std::string table = table_;
    ProjectionBuilder builder =
        projection(name_)
            .source("^" + prefix_ + "-")
            .lane(lane_.name)
            .setup([table](Sql& sql) {
              sql.exec("CREATE TABLE IF NOT EXISTS " + table + " (event_id bigint PRIMARY KEY, n int NOT NULL)");
            })
            .on<Incremented>("Incremented",
                             [table, number](const Incremented&, const Committed& event, Sql& sql) {
                               sql.exec("INSERT INTO " + table + " VALUES ($1, $2)", {event.id, number});
                             })
            .side_effect<Incremented>("Incremented", [this, number](const Incremented&, ReactionContext& context) {
              const std::lock_guard lock(mutex_);
              effects_.insert({context.event().stream + "#" + std::to_string(context.event().version), number});
            });
    if (number != 1) builder = std::move(builder).version(number);
    return std::move(builder).build();
  }

  App both() { return counter_app(map(), lane_).with(version(1)).with(version(2)).build(); }

  // One increment on a stream of every partition.
  void commit_round(App& app) {
    for (std::int32_t p = 0; p < partitions(); ++p) app.do_action("increment", {stream_of(p), kBot, {}}, Increment{1});
  }
  std::string stream_of(std::int32_t partition) {
    while (streams_.size() <= static_cast<std::size_t>(partition))
      streams_.push_back(stream_in(static_cast<std::int32_t>(streams_.size()), prefix_));
    return streams_[static_cast<std::size_t>(partition)];
  }
  // "rows/sum" read through the reading schema on partition p.
  std::string read(std::int32_t p) {
    return sql(
        p, "SELECT count(*) || '/' || coalesce(sum(n), 0) FROM " + projection_reading_schema(name_) + "." + table_)[0];
  }
  std::size_t effects_of(std::int32_t number) {
    const std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(
        std::count_if(effects_.begin(), effects_.end(), [&](const auto& e) { return e.second == number; }));
  }

  Lane lane_{unique("cpp-versions-lane")};
  std::string prefix_;
  std::string name_;
  std::string table_;
  std::vector<std::string> streams_;
  std::mutex mutex_;
  std::set<std::pair<std::string, std::int32_t>> effects_;
};

TEST_F(ProjectionVersionTest, EachPartitionBuildsBesideAndSwitches) {
  App app = both();
  app.settle();  // sets both versions up on every partition
  for (int round = 0; round < 3; ++round) commit_round(app);
  app.settle();
  for (std::int32_t p = 0; p < partitions(); ++p) EXPECT_EQ(read(p), "3/3") << "partition " << p;  // version 1
  EXPECT_EQ(app.projection_lag(version(2)).events, 0);
  EXPECT_EQ(effects_of(1), static_cast<std::size_t>(3 * partitions()));
  EXPECT_EQ(effects_of(2), 0u);  // built, not current

  const SwitchResult switched = app.switch_projection(version(2));
  ASSERT_TRUE(switched.switched);
  EXPECT_EQ(switched.lag, 0);
  EXPECT_EQ(app.current_projection_version(name_), 2);
  for (std::int32_t p = 0; p < partitions(); ++p) EXPECT_EQ(read(p), "3/6") << "partition " << p;  // version 2

  commit_round(app);
  app.settle();
  for (std::int32_t p = 0; p < partitions(); ++p) EXPECT_EQ(read(p), "4/8") << "partition " << p;
  EXPECT_EQ(effects_of(1), static_cast<std::size_t>(3 * partitions()));  // version 1 is fed, but not current
  EXPECT_EQ(effects_of(2), static_cast<std::size_t>(partitions()));
  std::set<std::string> events;
  for (const auto& [event, number] : effects_) events.insert(event);
  EXPECT_EQ(events.size(), effects_.size());  // no event's side effect ran twice

  App without_v1 = counter_app(map(), lane_).with(version(2)).build();
  without_v1.drop_projection_version(name_, 1);
  for (std::int32_t p = 0; p < partitions(); ++p) {
    EXPECT_EQ(sql(p, "SELECT to_regclass('public." + table_ + "') IS NULL")[0], "t") << "partition " << p;
    EXPECT_EQ(read(p), "4/8") << "partition " << p;
  }
}

}  // namespace
}  // namespace act::test
