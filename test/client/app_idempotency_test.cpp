// Idempotent actions and commits: DoOptions::idempotency_key, and
// meta.idempotency_key through Store::commit and Store::commit_by_key.
#include <gtest/gtest.h>

#include "support/counter_app.hpp"

namespace act::test {
namespace {

using nlohmann::json;

class IdempotencyTest : public CounterAppTest {
 protected:
  static std::vector<std::int64_t> ids_of(const std::vector<Committed>& events) {
    std::vector<std::int64_t> ids;
    for (const Committed& event : events) ids.push_back(event.id);
    return ids;
  }
  DoOptions keyed(const std::string& key) {
    DoOptions options;
    options.idempotency_key = key;
    return options;
  }
};

TEST_F(IdempotencyTest, AKeyedActionRunsOnce) {
  const std::string s = stream();
  const auto first = app_->do_action("increment", {s, kAnn, {}}, Increment{2}, keyed("req-1"));
  ASSERT_EQ(first.events.size(), 1u);
  EXPECT_EQ(first.events[0].meta.at("idempotency_key"), "req-1");
  const auto again = app_->do_action("increment", {s, kAnn, {}}, Increment{2}, keyed("req-1"));
  EXPECT_EQ(ids_of(again.events), ids_of(first.events)) << "the same commit, not a new one";
  EXPECT_EQ(again.state_as<Counter>().count, 2);
  EXPECT_EQ(store_->version(s), 0) << "written once";
  const auto other = app_->do_action("increment", {s, kAnn, {}}, Increment{2}, keyed("req-2"));
  EXPECT_EQ(other.version, 1) << "another key is another action";
  EXPECT_EQ(other.state_as<Counter>().count, 4);
}

TEST_F(IdempotencyTest, ARepeatIsNotAnnouncedAsANewCommit) {
  int announced = 0;
  App watched = app(pool_).with(counter_).on_committed([&](const std::vector<Committed>&) { ++announced; }).build();
  const std::string s = stream();
  watched.do_action("increment", {s, kAnn, {}}, Increment{2}, keyed("req-w"));
  const auto again = watched.do_action("increment", {s, kAnn, {}}, Increment{2}, keyed("req-w"));
  EXPECT_EQ(again.version, 0);
  EXPECT_EQ(again.state_as<Counter>().count, 2);
  EXPECT_EQ(announced, 1) << "on_committed heard the commit once";
}

TEST_F(IdempotencyTest, ARepeatedActionIsNotRefusedByTheStateItMade) {
  // decrement needs a positive count: run once it made the count 0, and a
  // repeat would be refused. With its key it returns what it did.
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  const auto first = app_->do_action("decrement", {s, kAnn, {}}, Decrement{1}, keyed("req-d"));
  ASSERT_EQ(first.state_as<Counter>().count, 0);
  app_->clear_cache();
  const auto again = app_->do_action("decrement", {s, kAnn, {}}, Decrement{1}, keyed("req-d"));
  EXPECT_EQ(ids_of(again.events), ids_of(first.events));
  EXPECT_EQ(again.state_as<Counter>().count, 0);
  EXPECT_THROW(app_->do_action("decrement", {s, kAnn, {}}, Decrement{1}, keyed("req-e")), InvariantError)
      << "a new key is checked against the rules";
}

TEST_F(IdempotencyTest, APinnedVersionTheActionItselfMovedIsNoConflict) {
  const std::string s = stream();
  const auto first = app_->do_action("increment", {s, kAnn, -1}, Increment{3}, keyed("create"));
  const auto again = app_->do_action("increment", {s, kAnn, -1}, Increment{3}, keyed("create"));
  EXPECT_EQ(ids_of(again.events), ids_of(first.events));
  EXPECT_THROW(app_->do_action("increment", {s, kAnn, -1}, Increment{3}, keyed("create-2")), ConcurrencyError);
}

TEST_F(IdempotencyTest, ACommitWhoseReplyWasLostIsAnsweredWithItsRows) {
  // As if an earlier attempt of the action had landed and its reply was lost.
  const std::string s = stream();
  const json meta = {{"idempotency_key", "lost-1"}};
  const auto landed = store_->commit(s, {{"Incremented", {{"by", 5}}, {}}}, meta, -1);
  const auto resent = store_->commit(s, {{"Incremented", {{"by", 5}}, {}}}, meta, -1);
  EXPECT_EQ(ids_of(resent), ids_of(landed)) << "the store answers a resent commit with the first one's rows";
  const auto action = app_->do_action("increment", {s, kAnn, {}}, Increment{5}, keyed("lost-1"));
  EXPECT_EQ(ids_of(action.events), ids_of(landed));
  EXPECT_EQ(action.state_as<Counter>().count, 5);
  EXPECT_EQ(ids_of(store_->commit_by_key(s, "lost-1")), ids_of(landed));
  EXPECT_TRUE(store_->commit_by_key(s, "never-used").empty());
  EXPECT_EQ(store_->version(s), 0);
}

TEST_F(IdempotencyTest, AResentCommitWithOtherEventsIsRefused) {
  const std::string s = stream();
  const json meta = {{"idempotency_key", "k"}};
  store_->commit(s, {{"Incremented", {{"by", 1}}, {}}}, meta);
  try {
    store_->commit(s, {{"Incremented", {{"by", 2}}, {}}}, meta);
    FAIL() << "other events under a used key were accepted";
  } catch (const ValidationError& error) {
    EXPECT_EQ(error.sqlstate(), "22023");
    EXPECT_NE(std::string(error.what()).find("belongs to a commit with other events"), std::string::npos) << error.what();
  }
  EXPECT_THROW(store_->commit(s, {{"Incremented", {{"by", 1}}, {}}}, json{{"idempotency_key", ""}}), ValidationError);
  EXPECT_EQ(store_->version(s), 0);
}

}  // namespace
}  // namespace act::test
