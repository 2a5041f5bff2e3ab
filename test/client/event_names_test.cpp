// Event names declared once with the type (act/event_name.hpp), and
// handlers of events no state declares refused at build().
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "support/database.hpp"

namespace names_test {
// Named by a member.
struct Opened {
  static constexpr std::string_view event_name = "AccountOpened";
  std::string owner;
};
// Named from outside the type.
struct Closed {
  std::string reason;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Opened, owner)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Closed, reason)
struct Account {
  std::string owner;
  bool open = false;
};
struct Open {
  std::string owner;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Open, owner)
}  // namespace names_test

ACT_EVENT_NAME(names_test::Closed, "AccountClosed");

namespace act::test {
namespace {

using names_test::Account;
using names_test::Closed;
using names_test::Open;
using names_test::Opened;

State<Account> account_state() {
  return state<Account>("Account")
      .patch<Opened>([](const Opened& e, Account) { return Account{e.owner, true}; })
      .patch<Closed>([](const Closed&, Account a) {
        a.open = false;
        return a;
      })
      .on<Open>("open")
      .emit([](const Open& o, const Account&) { return Opened{o.owner}; })
      .build();
}

TEST(EventName, TheTypeCarriesItsName) {
  static_assert(named_event<Opened> && named_event<Closed>);
  static_assert(!named_event<Open>);
  EXPECT_EQ(event_name<Opened>(), "AccountOpened");
  EXPECT_EQ(event_name<Closed>(), "AccountClosed");
  const State<Account> account = account_state();
  EXPECT_TRUE(account.model().reducers.contains("AccountOpened"));
  EXPECT_TRUE(account.model().reducers.contains("AccountClosed"));
}

TEST(EventName, ANameThatContradictsTheTypeIsRefused) {
  const auto reduce = [](const Opened&, Account a) { return a; };
  EXPECT_THROW(state<Account>("A").patch<Opened>("Opened", reduce), std::invalid_argument);
}

class EventNamesTest : public DatabaseTest {};

TEST_F(EventNamesTest, ReactionsAndProjectionsUseTheDeclaredName) {
  const std::string s = stream("acct");
  std::vector<std::string> reacted;
  std::vector<std::string> projected;
  App accounts = app(pool_)
                     .with(account_state())
                     .with(projection("owners-" + s)
                               .source(s)
                               .on<Opened>([&](const Opened& e, const Committed&, Sql&) { projected.push_back(e.owner); })
                               .build())
                     .on<Opened>()
                     .to(Route{"greet-" + s, s})
                     .handle("greet", [&](const Opened& e, ReactionContext& context) {
                       reacted.push_back(context.event().name + " " + e.owner);
                     })
                     .build();
  const ActionResult opened = accounts.do_action("open", {s, {"u", "U"}, {}}, Open{"Ann"});
  ASSERT_EQ(opened.events.size(), 1u);
  EXPECT_EQ(opened.events[0].name, "AccountOpened");
  accounts.settle();
  EXPECT_EQ(reacted, std::vector<std::string>{"AccountOpened Ann"});
  EXPECT_EQ(projected, std::vector<std::string>{"Ann"});
}

TEST_F(EventNamesTest, HandlingAnEventNoStateDeclaresIsRefusedAtBuild) {
  const auto noop = [](const nlohmann::json&, ReactionContext&) {};
  EXPECT_THROW(app(pool_).with(account_state()).on<nlohmann::json>("AccountOpend").to("t").handle("h", noop).build(),
               std::invalid_argument)
      << "a typo would wait forever";
  EXPECT_THROW(app(pool_).with(projection("p").on<nlohmann::json>("Paid", [](const nlohmann::json&, const Committed&, Sql&) {}).build()).build(),
               std::invalid_argument);
  EXPECT_NO_THROW(app(pool_).declares({"Paid"}).on<nlohmann::json>("Paid").to("t").handle("h", noop).build())
      << "an event other applications write is declared by name";
  EXPECT_THROW(app(pool_).declares({""}), std::invalid_argument);
}

}  // namespace
}  // namespace act::test
