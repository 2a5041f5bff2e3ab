// Personal data: sensitive fields travel in the pii sidecar, loads fold what
// the reader may see, handlers get them removed unless they disclose them,
// App::forget wipes them (and the cache), and a role that may not read pii
// never sees them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/database.hpp"

namespace act::test {
namespace {

using nlohmann::json;

struct Member {
  std::string name;
  std::string email;
};
// Sensitive fields read as strings ("[REDACTED]", "[SHREDDED]") and may be
// missing (removed for handlers): the event types default them.
struct Registered {
  std::string name;
  std::string email;
};
struct Register {
  std::string name;
  std::string email;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Member, name, email)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Registered, name, email)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Register, name, email)

const Actor kAdmin{"admin", "Admin"};
const Actor kClerk{"clerk", "Clerk"};

StateBuilder<Member> member_builder() {
  return state<Member>("Member")
      .patch<Registered>("Registered",
                         [](const Registered& e, Member m) {
                           m.name = e.name;
                           m.email = e.email;
                           return m;
                         })
      .sensitive("Registered", {"email"})
      .discloses([](const Actor& actor) { return actor.id == "admin"; })
      .on<Register>("register")
      .emit([](const Register& r, const Member&) {
        if (r.email.empty()) return Events{}.add("Registered", json{{"name", r.name}});  // no email given
        return events(Registered{r.name, r.email});
      });
}

class PersonalDataTest : public DatabaseTest {
 protected:
  void SetUp() override {
    DatabaseTest::SetUp();
    app_ = std::make_unique<App>(app(pool_).with(member_).build());
  }
  std::string registered(const std::string& email = "ann@example.org") {
    const std::string s = stream("member");
    app_->do_action("register", {s, kClerk, {}}, Register{"Ann", email});
    return s;
  }

  State<Member> member_ = member_builder().build();
  std::unique_ptr<App> app_;
};

TEST_F(PersonalDataTest, ACommitKeepsSensitiveFieldsInTheSidecar) {
  const std::string s = stream("member");
  const ActionResult result = app_->do_action("register", {s, kClerk, {}}, Register{"Ann", "ann@example.org"});
  EXPECT_EQ(result.state_as<Member>().email, "ann@example.org") << "the action folds what it wrote";
  EXPECT_EQ(database().sql("SELECT data::text FROM act.events WHERE stream = '" + s + "'"), R"({"name": "Ann"})");
  EXPECT_EQ(database().sql("SELECT pii::text FROM act.events WHERE stream = '" + s + "'"), R"({"email": "ann@example.org"})");
}

TEST_F(PersonalDataTest, ALoadShowsWhatTheReaderMaySee) {
  const std::string s = registered();
  EXPECT_EQ(app_->load(member_, s).state.email, "[REDACTED]") << "no reader";
  EXPECT_EQ(app_->load(member_, s, kClerk).state.email, "[REDACTED]");
  EXPECT_EQ(app_->load(member_, s, kAdmin).state.email, "ann@example.org");
  EXPECT_EQ(app_->load(member_, s, kAdmin).state.name, "Ann");
  EXPECT_EQ(app_->stats().cache_hits, 0u) << "one reader's view is never served to another from the cache";
}

TEST_F(PersonalDataTest, ForgetShredsAndTheChainHolds) {
  const std::string s = registered();
  app_->load(member_, s, kAdmin);
  EXPECT_EQ(app_->forget(s), 1);
  EXPECT_EQ(app_->load(member_, s, kAdmin).state.email, "[SHREDDED]");
  EXPECT_EQ(app_->load(member_, s).state.email, "[SHREDDED]");
  EXPECT_EQ(app_->load(member_, s).state.name, "Ann") << "only the sensitive fields go";
  EXPECT_EQ(app_->forget(s), 0) << "forgetting twice wipes nothing more";
  const std::vector<ChainCheck> checks = store_->verify(s);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_TRUE(checks[0].valid) << "pii is outside the hash chain";
}

TEST_F(PersonalDataTest, AFieldNeverGivenIsNotTakenForAForgottenOne) {
  const std::string s = registered("");
  EXPECT_EQ(app_->load(member_, s, kAdmin).state.email, "") << "absent, not [SHREDDED]";
  EXPECT_EQ(app_->load(member_, s, kClerk).state.email, "");
  EXPECT_EQ(app_->forget(s), 1);
  EXPECT_EQ(app_->load(member_, s, kAdmin).state.email, "[SHREDDED]") << "forgotten: nothing tells what was there";
}

TEST_F(PersonalDataTest, HandlersGetSensitiveFieldsOnlyWhenTheyDisclose) {
  const std::string s = registered();
  std::vector<json> plain_reaction, disclosed_reaction, plain_projection, disclosed_projection;
  const auto project = [s](std::vector<json>& seen, bool discloses) {
    auto builder = projection("members-" + std::string(discloses ? "open-" : "closed-") + s).source(s);
    if (discloses) builder = std::move(builder).discloses_pii();
    return std::move(builder)
        .on<json>("Registered", [&seen](const json& data, const Committed& event, Sql&) {
          EXPECT_FALSE(event.pii) << "the sidecar is never handed over";
          seen.push_back(data);
        })
        .build();
  };
  App watcher = app(pool_)
                    .with(member_)
                    .with(project(plain_projection, false))
                    .with(project(disclosed_projection, true))
                    .on<json>("Registered")
                    .to(Route{"plain-" + s, s})
                    .handle("plain", [&](const json& data, ReactionContext&) { plain_reaction.push_back(data); })
                    .on<json>("Registered")
                    .to(Route{"disclosed-" + s, s})
                    .discloses_pii()
                    .handle("disclosed", [&](const json& data, ReactionContext&) { disclosed_reaction.push_back(data); })
                    .build();
  watcher.settle();
  const json stripped = {{"name", "Ann"}};
  const json plaintext = {{"name", "Ann"}, {"email", "ann@example.org"}};
  EXPECT_EQ(plain_reaction, std::vector<json>{stripped});
  EXPECT_EQ(disclosed_reaction, std::vector<json>{plaintext});
  EXPECT_EQ(plain_projection, std::vector<json>{stripped});
  EXPECT_EQ(disclosed_projection, std::vector<json>{plaintext});
}

TEST_F(PersonalDataTest, AnInlineProjectionGetsTheViewItMaySee) {
  const std::string s = stream("member");
  std::vector<json> closed, open;
  const auto project = [s](std::vector<json>& seen, bool discloses) {
    auto builder = projection("inline-" + std::string(discloses ? "open-" : "closed-") + s).source(s).run_inline();
    if (discloses) builder = std::move(builder).discloses_pii();
    return std::move(builder)
        .on<json>("Registered", [&seen](const json& data, const Committed&, Sql&) { seen.push_back(data); })
        .build();
  };
  App members = app(pool_).with(member_).with(project(closed, false)).with(project(open, true)).build();
  members.do_action("register", {s, kClerk, {}}, Register{"Ann", "ann@example.org"});
  EXPECT_EQ(closed, std::vector<json>{json({{"name", "Ann"}})});
  EXPECT_EQ(open, std::vector<json>{json({{"name", "Ann"}, {"email", "ann@example.org"}})});
}

// Version 2 renamed the personal field: version 1 kept "mail" in the sidecar.
struct Registered_v2 {
  std::string name;
  std::string email;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Registered_v2, name, email)

TEST_F(PersonalDataTest, AnOlderVersionsPersonalFieldsReachItsUpcaster) {
  const State<Member> renamed =
      state<Member>("MemberV2")
          .upcast("Registered", "Registered_v2",
                  [](const json& v1) { return Registered_v2{v1.value("name", ""), v1.value("mail", "")}; })
          .patch<Registered_v2>("Registered_v2",
                                [](const Registered_v2& e, Member m) {
                                  m.name = e.name;
                                  m.email = e.email;
                                  return m;
                                })
          .sensitive("Registered_v2", {"email"})
          .discloses([](const Actor& actor) { return actor.id == "admin"; })
          .build();
  const std::string s = stream("member");
  store_->commit(s, {Message{"Registered", {{"name", "Ann"}}, json{{"mail", "ann@example.org"}}}});
  std::vector<json> plain, disclosed;
  App members = app(pool_)
                    .with(renamed)
                    .on<json>("Registered_v2")
                    .to(Route{"plain-" + s, s})
                    .handle("plain", [&](const json& data, ReactionContext&) { plain.push_back(data); })
                    .on<json>("Registered_v2")
                    .to(Route{"open-" + s, s})
                    .discloses_pii()
                    .handle("open", [&](const json& data, ReactionContext&) { disclosed.push_back(data); })
                    .build();
  EXPECT_EQ(members.load(renamed, s, kAdmin).state.email, "ann@example.org") << "the upcaster saw the old field";
  EXPECT_EQ(members.load(renamed, s, kClerk).state.email, "[REDACTED]");
  members.settle();
  EXPECT_EQ(disclosed, std::vector<json>{json({{"name", "Ann"}, {"email", "ann@example.org"}})}) << "as loads see it";
  EXPECT_EQ(plain, std::vector<json>{json({{"name", "Ann"}})}) << "the field the upcaster made is removed too";
}

TEST_F(PersonalDataTest, ARoleThatMayNotReadPiiNeverSeesIt) {
  const std::string s = registered();
  database().sql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'act_test_no_pii') THEN "
                 "CREATE ROLE act_test_no_pii LOGIN IN ROLE act_writer; END IF; END $$");
  App outsider = app(database().conninfo() + " user=act_test_no_pii").with(member_).build();
  EXPECT_EQ(outsider.load(member_, s, kAdmin).state.email, "[SHREDDED]") << "the database withholds it";
  EXPECT_EQ(outsider.load(member_, s, kAdmin).state.name, "Ann");
}

TEST_F(PersonalDataTest, BuildRefusesWhatWouldLeakOrNameNothing) {
  const auto reduce = [](const Registered&, Member m) { return m; };
  EXPECT_THROW(state<Member>("M").patch<Registered>("Registered", reduce).sensitive("Other", {"email"}).build(),
               std::invalid_argument);
  EXPECT_THROW(state<Member>("M").patch<Registered>("Registered", reduce).sensitive("Registered", {}), std::invalid_argument);
  EXPECT_THROW(state<Member>("M").patch<Registered>("Registered", reduce).sensitive("Registered", {""}),
               std::invalid_argument);
  EXPECT_THROW(member_builder().snap_every(5).build(), std::invalid_argument) << "a snapshot would copy the plaintext";
  const State<Member> unmarked = state<Member>("Directory").patch<Registered>("Registered", reduce).build();
  EXPECT_THROW(app(pool_).with(member_).with(unmarked).build(), std::invalid_argument)
      << "another state of the app would commit the email into data";
}

}  // namespace
}  // namespace act::test
