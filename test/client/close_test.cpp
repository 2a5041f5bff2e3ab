// Closing the books: retire, restart with a seed, retention windows; the
// archive runs before anything is deleted, and a stream that a reaction has
// not handled, or that a commit reached during the archive, is skipped.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "support/counter_app.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

class CloseTest : public CounterAppTest {
 protected:
  // A stream of `increments` increments by 1.
  std::string counted(int increments, App* through = nullptr) {
    const std::string s = stream();
    for (int i = 0; i < increments; ++i) (through ? *through : *app_).do_action("increment", {s, kAnn, {}}, Increment{1});
    return s;
  }
};

TEST_F(CloseTest, RetiringDeletesTheHistoryAndClosesTheStream) {
  const std::string s = counted(3);
  const CloseResult result = app_->close({CloseTarget{s}});
  ASSERT_EQ(result.truncated.count(s), 1u);
  EXPECT_EQ(result.truncated.at(s).name, "__tombstone__");
  EXPECT_EQ(result.truncated.at(s).deleted, 3);
  EXPECT_TRUE(result.skipped.empty());
  EXPECT_EQ(events_in(s), 1) << "the tombstone alone";
  EXPECT_THROW(app_->do_action("increment", {s, kAnn, {}}, Increment{1}), StreamClosedError)
      << "the cached state went with it";
  EXPECT_TRUE(app_->close({CloseTarget{s}}).truncated.empty()) << "closing a closed stream changes nothing";
}

TEST_F(CloseTest, RestartingSeedsTheFinalState) {
  const std::string s = counted(4);
  const CloseResult result = app_->close({CloseTarget{s, true}});
  ASSERT_EQ(result.truncated.count(s), 1u);
  EXPECT_EQ(result.truncated.at(s).name, "__snapshot__");
  EXPECT_EQ(result.truncated.at(s).version, 0);
  const auto warm = app_->load(counter_, s);
  EXPECT_TRUE(warm.cache_hit) << "the cache holds the seed";
  EXPECT_EQ(warm.state.count, 4);
  app_->clear_cache();
  const auto cold = app_->load(counter_, s);
  EXPECT_EQ(cold.state.count, 4);
  EXPECT_EQ(cold.version, 0);
  EXPECT_EQ(app_->do_action("increment", {s, kAnn, {}}, Increment{1}).version, 1) << "the stream lives on";
}

TEST_F(CloseTest, EveryArchiveRunsBeforeAnyDeletion) {
  const std::string first = counted(2);
  const std::string second = counted(2);
  std::vector<std::int64_t> seen;
  CloseTarget keep{first};
  keep.archive = [&](const std::string& s) { seen.push_back(events_in(s)); };
  CloseTarget fail{second};
  fail.archive = [](const std::string&) { throw std::runtime_error("the archive is offline"); };
  EXPECT_THROW(app_->close({keep, fail}), std::runtime_error);
  EXPECT_EQ(seen, std::vector<std::int64_t>{2}) << "the archive saw the whole stream";
  EXPECT_EQ(events_in(first), 2) << "nothing deleted when a later archive failed";
  EXPECT_EQ(events_in(second), 2);
  EXPECT_EQ(app_->close({keep}).truncated.count(first), 1u) << "a retry closes it";
}

TEST_F(CloseTest, ACommitDuringTheArchiveSkipsTheStream) {
  const std::string s = counted(2);
  CloseTarget target{s};
  target.archive = [&](const std::string& stream) { store_->commit(stream, {{"Incremented", {{"by", 1}}, {}}}); };
  const CloseResult result = app_->close({target});
  EXPECT_TRUE(result.truncated.empty());
  EXPECT_EQ(result.skipped, std::vector<std::string>{s});
  EXPECT_EQ(events_in(s), 3) << "the late commit is neither lost nor unarchived";
}

TEST_F(CloseTest, AStreamAReactionHasNotHandledIsSkipped) {
  const std::string s = stream();
  int handled = 0;
  App reacting = app(pool_)
                     .with(counter_)
                     .on<Incremented>("Incremented")
                     .to(Route{"audit-" + s, s})
                     .handle("audit", [&](const Incremented&, ReactionContext&) { ++handled; })
                     .build();
  reacting.correlate();  // the fixed target is registered
  reacting.do_action("increment", {s, kAnn, {}}, Increment{1});
  const CloseResult early = reacting.close({CloseTarget{s}});
  EXPECT_EQ(early.skipped, std::vector<std::string>{s});
  EXPECT_EQ(events_in(s), 1);
  reacting.settle();
  EXPECT_EQ(handled, 1);
  EXPECT_EQ(reacting.close({CloseTarget{s}}).truncated.count(s), 1u) << "handled: it may close";
}

TEST_F(CloseTest, AWindowDropsWhatPrecedesTheLatestSnapshotBeforeIt) {
  const State<Counter> snapping = counter_state(CounterOptions{0, 2});
  App app_with_snapshots = app(pool_).with(snapping).build();
  const std::string s = counted(5, &app_with_snapshots);  // snapshots after the 2nd and 4th increments
  CloseTarget window{s};
  window.before = std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now()) + 1h;
  int archived = 0;
  window.archive = [&](const std::string&) { ++archived; };
  const CloseResult result = app_with_snapshots.close({window});
  ASSERT_EQ(result.truncated.count(s), 1u);
  EXPECT_EQ(result.truncated.at(s).name, "__snapshot__");
  EXPECT_EQ(result.truncated.at(s).deleted, 5) << "4 increments and the first snapshot";
  EXPECT_EQ(archived, 1);
  EXPECT_EQ(events_in(s), 2) << "the boundary snapshot and the increment after it";
  app_with_snapshots.clear_cache();
  EXPECT_EQ(app_with_snapshots.load(snapping, s).state.count, 5);
  EXPECT_EQ(app_with_snapshots.do_action("increment", {s, kAnn, {}}, Increment{1}).state_as<Counter>().count, 6)
      << "the stream stays open";

  const std::string unsnapped = counted(2);
  CloseTarget nothing{unsnapped};
  nothing.before = window.before;
  EXPECT_EQ(app_->close({nothing}).skipped, std::vector<std::string>{unsnapped}) << "no snapshot bounds the window";
  EXPECT_EQ(events_in(unsnapped), 2);
}

TEST_F(CloseTest, ASeedIsRestoredByAStateOfALaterVersion) {
  // The seed records the version of the state that wrote it.
  CounterOptions later;
  later.version = 2;
  const State<Counter> second_shape = counter_state(later);
  App versioned = app(pool_).with(second_shape).build();
  const std::string s = counted(3, &versioned);
  ASSERT_EQ(versioned.close({CloseTarget{s, true}}).truncated.count(s), 1u);
  versioned.clear_cache();
  const auto loaded = versioned.load(second_shape, s);
  EXPECT_EQ(loaded.snaps, 1) << "the seed is restored, not passed over";
  EXPECT_EQ(loaded.state.count, 3);
}

TEST_F(CloseTest, ARestartNoStateCanSeedIsSkipped) {
  const std::string s = stream();
  store_->commit(s, {{"Imported", {{"rows", 3}}, {}}});
  EXPECT_EQ(app_->close({CloseTarget{s, true}}).skipped, std::vector<std::string>{s}) << "never retired by mistake";
  EXPECT_EQ(events_in(s), 1);
}

TEST_F(CloseTest, AFreshLoadElsewhereFollowsARestart) {
  const std::string s = counted(2);
  App other = app(pool_).with(counter_).build();
  EXPECT_EQ(other.load(counter_, s).state.count, 2);  // cached there at version 1
  app_->do_action("increment", {s, kAnn, {}}, Increment{5});
  ASSERT_EQ(app_->close({CloseTarget{s, true}}).truncated.count(s), 1u);
  const auto fresh = other.load(counter_, s, LoadOptions{.fresh = true});
  EXPECT_EQ(fresh.state.count, 7) << "the seed, not the old cache with a gap";
  EXPECT_EQ(fresh.version, 0);
  EXPECT_EQ(other.do_action("increment", {s, kAnn, {}}, Increment{1}).state_as<Counter>().count, 8);
}

TEST_F(CloseTest, AWindowsArchiveThatThrowsLeavesFullClosesUndone) {
  const std::string full = counted(2);
  const State<Counter> snapping = counter_state(CounterOptions{0, 1});
  App with_snapshots = app(pool_).with(snapping).build();
  const std::string windowed = counted(3, &with_snapshots);
  CloseTarget window{windowed};
  window.before = std::chrono::time_point_cast<std::chrono::microseconds>(std::chrono::system_clock::now()) + 1h;
  window.archive = [](const std::string&) { throw std::runtime_error("the archive is offline"); };
  EXPECT_THROW(with_snapshots.close({CloseTarget{full}, window}), std::runtime_error);
  EXPECT_EQ(events_in(full), 2);
  EXPECT_EQ(events_in(windowed), 6);
}

TEST_F(CloseTest, BadTargetsAreRefusedBeforeAnythingHappens) {
  const std::string s = counted(1);
  CloseTarget both{s, true};
  both.before = Timestamp{};
  EXPECT_THROW(app_->close({CloseTarget{""}}), std::invalid_argument);
  EXPECT_THROW(app_->close({CloseTarget{s}, CloseTarget{s}}), std::invalid_argument);
  EXPECT_THROW(app_->close({both}), std::invalid_argument);
  EXPECT_EQ(events_in(s), 1);
}

}  // namespace
}  // namespace act::test
