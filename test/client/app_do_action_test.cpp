// do_action: the commit guard, expected versions, metadata, closed streams.
#include <gtest/gtest.h>

#include "support/counter_app.hpp"

namespace act::test {
namespace {

using nlohmann::json;

class DoActionTest : public CounterAppTest {};

TEST_F(DoActionTest, CommitsAndFoldsTheEvents) {
  const std::string s = stream();
  const auto first = app_->do_action("increment", {s, kAnn, {}}, Increment{2});
  ASSERT_EQ(first.events.size(), 1u);
  EXPECT_EQ(first.events[0].version, 0);
  EXPECT_EQ(first.events[0].name, "Incremented");
  EXPECT_EQ(first.state_as<Counter>().count, 2);
  EXPECT_EQ(first.attempts, 1);
  const auto second = app_->do_action("increment", {s, kAnn, {}}, json{{"by", 5}});
  EXPECT_EQ(second.version, 1);
  EXPECT_EQ(second.state_as<Counter>().count, 7);
  EXPECT_EQ(store_->version(s), 1);
}

TEST_F(DoActionTest, AStreamWithNoEventsIsNotCached) {
  const std::string s = stream();
  const auto loaded = app_->load(counter_, s);
  EXPECT_EQ(loaded.version, -1);
  EXPECT_EQ(loaded.replayed, 0);
  store_->commit(s, {{"Incremented", {{"by", 10}}, {}}});  // another writer creates it
  const auto result = app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  EXPECT_EQ(result.version, 1);
  EXPECT_EQ(result.state_as<Counter>().count, 11) << "the fold includes the other writer's event";
  EXPECT_EQ(app_->stats().conflicts, 0u);
}

TEST_F(DoActionTest, ExpectedVersionPinsTheCommit) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  const auto pinned = app_->do_action("increment", {s, kAnn, 0}, Increment{1});
  EXPECT_EQ(pinned.version, 1);

  try {
    app_->do_action("increment", {s, kAnn, 0}, Increment{1});
    FAIL() << "a stale expected version committed";
  } catch (const ConcurrencyError& error) {
    EXPECT_EQ(error.stream(), s);
    EXPECT_EQ(error.expected_version(), 0);
    EXPECT_EQ(error.actual_version(), 1);
  }
  EXPECT_EQ(store_->version(s), 1) << "nothing was written";
  EXPECT_EQ(app_->stats().retries, 0u) << "a pinned version is never retried";

  EXPECT_THROW(app_->do_action("increment", {stream(), kAnn, 3}, Increment{1}), ConcurrencyError)
      << "a stream that does not exist is not at version 3";
  try {
    app_->do_action("increment", {s, kAnn, -1}, Increment{1});
    FAIL() << "-1 committed to an existing stream";
  } catch (const ConcurrencyError& error) {
    EXPECT_EQ(error.expected_version(), -1);
    EXPECT_EQ(error.actual_version(), 1);
  }
}

TEST_F(DoActionTest, AStaleExpectedVersionIsAConflictNotARefusal) {
  // The stream moved on to a state the action refuses (count 0): a caller
  // who pinned the old version must hear that it is stale, not that the
  // rule fails on a state it never saw.
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  store_->commit(s, {{"Decremented", {{"by", 1}}, {}}});  // another writer: count 0, version 1
  // First on the cached state (count 1, version 0: the refusal is checked
  // again on the store's), then on a state read from the store.
  for (const bool cached : {true, false}) {
    if (!cached) app_->clear_cache();
    try {
      app_->do_action("decrement", {s, kAnn, 0}, Decrement{2});
      FAIL() << "a stale expected version passed";
    } catch (const ConcurrencyError& error) {
      EXPECT_EQ(error.stream(), s);
      EXPECT_EQ(error.expected_version(), 0);
      EXPECT_EQ(error.actual_version(), 1);
    } catch (const InvariantError& error) {
      ADD_FAILURE() << "a stale expected version reached the caller as InvariantError: " << error.what()
                    << (cached ? " (cached state)" : " (state from the store)");
    }
  }
  EXPECT_EQ(store_->version(s), 1) << "nothing was written";
  // An action that emits nothing checks the pinned version too, as act.commit does.
  EXPECT_THROW(app_->do_action("touch", {s, kAnn, 0}, Increment{1}), ConcurrencyError);
  // On the current version the rule does refuse.
  EXPECT_THROW(app_->do_action("decrement", {s, kAnn, 1}, Decrement{1}), InvariantError);
}

TEST_F(DoActionTest, EveryCommitCarriesCorrelationAndCausation) {
  const std::string s = stream();
  const auto generated = app_->do_action("increment_twice", {s, kAnn, {}}, Increment{1});
  const json& meta = generated.events[0].meta;
  const std::string correlation = meta.at("correlation").get<std::string>();
  EXPECT_EQ(correlation.size(), 36u) << correlation;
  EXPECT_EQ(generated.events[1].meta, meta) << "one meta for the whole commit";
  EXPECT_EQ(meta.at("causation"),
            (json{{"action", {{"name", "increment_twice"}, {"stream", s}, {"actor", {{"id", "u-1"}, {"name", "Ann"}}}}}}));

  const auto other = app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  EXPECT_NE(other.events[0].meta.at("correlation"), correlation) << "a fresh id per action";

  const auto propagated = app_->do_action("increment", {s, kAnn, {}}, Increment{1}, DoOptions{"request-42"});
  EXPECT_EQ(propagated.events[0].meta.at("correlation"), "request-42");
  Query by_correlation;
  by_correlation.correlation = "request-42";
  EXPECT_EQ(store_->query(by_correlation, [](const Committed&) {}), 1);
}

TEST_F(DoActionTest, AClosedStreamRefusesActions) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  store_->truncate({TruncateTarget{s, {}, {}, {}, {}}});
  // The cache still holds the open stream: the database refuses the commit.
  try {
    app_->do_action("increment", {s, kAnn, {}}, Increment{1});
    FAIL() << "committed to a closed stream";
  } catch (const StreamClosedError& error) {
    EXPECT_EQ(error.stream(), s);
  }
  // Now loaded from the store, the tombstone itself stops the action before any commit.
  const auto sent = statements(*pool_);
  EXPECT_THROW(app_->do_action("increment", {s, kAnn, {}}, Increment{1}), StreamClosedError);
  EXPECT_EQ(statements(*pool_) - sent, 1u) << "one read, no commit attempt";
  EXPECT_FALSE(app_->load(counter_, s).cache_hit) << "a closed stream is never cached";
}

}  // namespace
}  // namespace act::test
