// State definitions: reducers, payload validation, invariants, emit handlers.
#include <gtest/gtest.h>

#include "support/counter_app.hpp"

namespace act::test {
namespace {

using nlohmann::json;

class StateBuilderTest : public CounterAppTest {
 protected:

  ValidationError validation_error(const std::string& action, const std::string& s, const json& payload) {
    try {
      app_->do_action(action, {s, kAnn, {}}, payload);
    } catch (const ValidationError& error) {
      return error;
    }
    ADD_FAILURE() << "no ValidationError for " << payload.dump();
    return ValidationError("none", "", "");
  }
};

TEST_F(StateBuilderTest, ReducersFoldTypedEvents) {
  const std::string s = stream();
  store_->commit(s, {{"Incremented", {{"by", 2}}, {}}, {"Decremented", {{"by", 1}}, {}}, {"Audited", {}, {}}});
  const auto loaded = app_->load(counter_, s);
  EXPECT_EQ(loaded.state.count, 1);
  EXPECT_EQ(loaded.state.changes, 2) << "an event the state does not reduce is skipped";
  EXPECT_EQ(loaded.version, 2) << "but it still moves the head";
  EXPECT_EQ(loaded.replayed, 3);
  ASSERT_TRUE(loaded.event);
  EXPECT_EQ(loaded.event->name, "Audited");
}

TEST_F(StateBuilderTest, APayloadThatDoesNotParseNamesTheField) {
  const std::string s = stream();
  const auto sent = statements(*pool_);

  const auto wrong_type = validation_error("increment", s, {{"by", "three"}});
  EXPECT_EQ(wrong_type.field(), "by");
  EXPECT_EQ(wrong_type.target(), "increment");
  EXPECT_STREQ(wrong_type.what(), "increment: by must be a number, not a string");

  const auto missing = validation_error("increment", s, json::object());
  EXPECT_EQ(missing.field(), "by");
  EXPECT_STREQ(missing.what(), "increment: by is required");

  const auto not_an_object = validation_error("increment", s, json::array({1}));
  EXPECT_EQ(not_an_object.field(), "");
  EXPECT_STREQ(not_an_object.what(), "increment: the payload must be a JSON object, not an array");

  EXPECT_EQ(statements(*pool_), sent) << "validation happens before any database access";
  EXPECT_EQ(store_->version(s), -1);
}

TEST_F(StateBuilderTest, AFailedValidatorNamesTheField) {
  const std::string s = stream();
  const auto error = validation_error("increment", s, Increment{0});
  EXPECT_EQ(error.field(), "by");
  EXPECT_STREQ(error.what(), "increment: by must be positive");
  EXPECT_EQ(store_->version(s), -1);
}

TEST_F(StateBuilderTest, ABrokenInvariantNamesTheRule) {
  const std::string s = stream();
  try {
    app_->do_action("decrement", {s, kAnn, {}}, Decrement{1});
    FAIL() << "decremented a zero count";
  } catch (const InvariantError& error) {
    EXPECT_EQ(error.action(), "decrement");
    EXPECT_EQ(error.stream(), s);
    EXPECT_EQ(error.rule(), "the count is positive");
    EXPECT_STREQ(error.what(), "decrement failed invariant: the count is positive");
  }
  EXPECT_EQ(store_->version(s), -1);

  app_->do_action("increment", {s, kAnn, {}}, Increment{1});
  try {
    app_->do_action("decrement", {s, kAnn, {}}, Decrement{5});
    FAIL() << "the handler's own check did not fire";
  } catch (const InvariantError& error) {
    EXPECT_EQ(error.rule(), "the count stays at 0 or more");
  }
  EXPECT_EQ(store_->version(s), 0);
}

TEST_F(StateBuilderTest, AHandlerMayEmitSeveralEvents) {
  const std::string s = stream();
  const auto result = app_->do_action("increment_twice", {s, kAnn, {}}, Increment{3});
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_EQ(result.events[0].version, 0);
  EXPECT_EQ(result.events[1].version, 1);
  EXPECT_EQ(result.events[0].name, "Incremented");
  EXPECT_EQ(result.events[1].data, (json{{"by", 3}}));
  EXPECT_EQ(result.state_as<Counter>().count, 6);
  EXPECT_EQ(result.version, 1);
  EXPECT_EQ(result.id, result.events[1].id);
}

TEST_F(StateBuilderTest, EmittingNothingCommitsNothing) {
  const std::string s = stream();
  app_->do_action("increment", {s, kAnn, {}}, Increment{4});
  const auto result = app_->do_action("touch", {s, kAnn, {}}, Increment{1});
  EXPECT_TRUE(result.events.empty());
  EXPECT_EQ(result.version, 0);
  EXPECT_EQ(result.state_as<Counter>().count, 4);
  EXPECT_EQ(store_->version(s), 0);
}

struct Ledger {
  std::int64_t last_id = -1;
  int entries = 0;
};
struct Entered {
  std::string note;
};
struct Enter {
  std::string note;
  bool audit = false;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Ledger, last_id, entries)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Entered, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Enter, note, audit)

TEST_F(StateBuilderTest, ReducersMaySeeTheCommittedEventAndHandlersTheTarget) {
  const auto ledger = state<Ledger>("Ledger")
                          .patch<Entered>("Entered",
                                          [](const Entered&, Ledger current, const Committed& event) {
                                            current.last_id = event.id;
                                            ++current.entries;
                                            return current;
                                          })
                          .patch<json>("Audited", [](const json&, Ledger current) { return current; })
                          .on<Enter>("enter")
                          .emit([](const Enter& action, const Ledger&, const Target& target) {
                            Events out;
                            out.add(Entered{action.note + " by " + target.actor.name});
                            if (action.audit) out.add("Audited", json{{"stream", target.stream}});
                            return out;
                          })
                          .build();
  auto ledger_app = app(pool_).with(ledger).build();
  const std::string s = stream();
  const auto result = ledger_app.do_action("enter", {s, kAnn, {}}, Enter{"paid", true});
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_EQ(result.events[0].data, (json{{"note", "paid by Ann"}}));
  EXPECT_EQ(result.events[1].name, "Audited");
  EXPECT_EQ(result.state_as<Ledger>().last_id, result.events[0].id);
  EXPECT_EQ(result.state_as<Ledger>().entries, 1);
}

TEST_F(StateBuilderTest, DeclarationMistakesAreCaughtEarly) {
  EXPECT_THROW(state<Counter>("C").on<Increment>("a").emit([](const Increment&, const Counter&) { return Events{}; })
                   .on<Increment>("a"),
               std::invalid_argument);
  EXPECT_THROW(state<Counter>("C")
                   .patch<Incremented>("E", [](const Incremented&, Counter c) { return c; })
                   .patch<Decremented>("E", [](const Decremented&, Counter c) { return c; }),
               std::invalid_argument);
  EXPECT_THROW(state<Counter>("C").patch<Incremented>("__snapshot__", [](const Incremented&, Counter c) { return c; }),
               std::invalid_argument);
  EXPECT_THROW(state<Counter>("C").snap_every(0), std::invalid_argument);
  EXPECT_THROW(state<Counter>("C").on<Increment>("a").retries(-1), std::invalid_argument);
  EXPECT_THROW(app(pool_).with(counter_state()).with(counter_state()).build(), std::invalid_argument)
      << "two states declaring the same action";
  EXPECT_THROW(app_->do_action("no_such_action", {stream(), kAnn, {}}, json::object()), std::invalid_argument);
}

TEST_F(StateBuilderTest, EmittingAnUndeclaredEventTypeIsAProgrammingError) {
  // A handler that returns one typed event is checked when the state is built.
  EXPECT_THROW(state<Counter>("Sloppy")
                   .on<Increment>("bump")
                   .emit([](const Increment& action, const Counter&) { return Incremented{action.by}; })
                   .build(),
               std::invalid_argument);
  // One that returns act::Events, typed or named, when it emits.
  const auto sloppy = state<Counter>("Sloppy")
                          .on<Increment>("bump")
                          .emit([](const Increment& action, const Counter&) { return events(Incremented{action.by}); })
                          .on<Increment>("name")
                          .emit([](const Increment& action, const Counter&) {
                            return Events{}.add("Incremented", json{{"by", action.by}});
                          })
                          .build();
  auto sloppy_app = app(pool_).with(sloppy).build();
  const std::string s = stream();
  EXPECT_THROW(sloppy_app.do_action("bump", {s, kAnn, {}}, Increment{1}), std::logic_error);
  EXPECT_THROW(sloppy_app.do_action("name", {s, kAnn, {}}, Increment{1}), std::logic_error) << "a typo in a name too";
  EXPECT_EQ(store_->version(s), -1);
}

}  // namespace
}  // namespace act::test
