// Event and state versions: "_vN" names, upcasters applied on every read
// (reducers, reactions, projections) without rewriting the log, deprecated
// events, and snapshots of an older state shape passed over.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "support/database.hpp"

namespace act::test {
namespace {

using nlohmann::json;

// A wallet whose deposit event changed shape twice:
//   Deposited {"cents": n}  ->  Deposited_v2 {"amount": {"cents": n}}  ->  Deposited_v3 {"amount": n, "currency": c}
struct Wallet {
  int total = 0;
  std::vector<std::string> currencies;
};
struct DepositedV3 {
  int amount = 0;
  std::string currency;
};
struct Deposit {
  int amount = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Wallet, total, currencies)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DepositedV3, amount, currency)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposit, amount)

// The second shape of the state: a field its from_json requires.
struct WalletV2 {
  int total = 0;
  int deposits = 0;
};
void to_json(json& out, const WalletV2& wallet) { out = {{"total", wallet.total}, {"deposits", wallet.deposits}}; }
void from_json(const json& in, WalletV2& wallet) {
  in.at("total").get_to(wallet.total);
  in.at("deposits").get_to(wallet.deposits);
}

// The deposit's upcasters, for either shape of the state.
template <class S>
StateBuilder<S> read_old_deposits(StateBuilder<S> builder) {
  return std::move(builder)
      .upcast("Deposited", "Deposited_v2", [](const json& v1) { return json{{"amount", {{"cents", v1.at("cents")}}}}; })
      .upcast("Deposited_v2", "Deposited_v3",
              [](const json& v2) { return json{{"amount", v2.at("amount").at("cents")}, {"currency", "EUR"}}; });
}

StateBuilder<Wallet> wallet_builder() {
  return read_old_deposits(state<Wallet>("Wallet"))
      .patch<DepositedV3>("Deposited_v3",
                          [](const DepositedV3& e, Wallet w) {
                            w.total += e.amount;
                            w.currencies.push_back(e.currency);
                            return w;
                          })
      .on<Deposit>("deposit")
      .emit([](const Deposit& d, const Wallet&) { return events(DepositedV3{d.amount, "USD"}); })
      .on<Deposit>("deposit_old_shape")
      .emit([](const Deposit& d, const Wallet&) { return Events{}.add("Deposited", json{{"cents", d.amount}}); });
}

TEST(EventVersion, NamesAndNumbers) {
  EXPECT_EQ(detail::event_version("Foo").base, "Foo");
  EXPECT_EQ(detail::event_version("Foo").number, 1);
  EXPECT_EQ(detail::event_version("Foo_v2").base, "Foo");
  EXPECT_EQ(detail::event_version("Foo_v2").number, 2);
  EXPECT_EQ(detail::event_version("Foo_v02").number, 2);
  EXPECT_EQ(detail::event_version("Foo_v12").number, 12);
  EXPECT_EQ(detail::event_version("Foo_v1").base, "Foo_v1") << "version 1 of a name of its own";
  EXPECT_EQ(detail::event_version("Foo_v0").base, "Foo_v0");
  EXPECT_EQ(detail::event_version("Foo_v").base, "Foo_v");
  EXPECT_EQ(detail::event_version("Foo_v2x").base, "Foo_v2x");
  EXPECT_EQ(detail::event_version("_v2").base, "_v2");
  EXPECT_EQ(detail::event_version("Foo_v99999999999").number, 1) << "too many digits is no version";
}

TEST(EventVersion, BuildRefusesUpcastersThatLeadNowhere) {
  const auto reduce = [](const json&, Wallet w) { return w; };
  // One bad declaration per line.
  EXPECT_THROW(state<Wallet>("W").patch<json>("Bar", reduce).upcast("Foo", "Bar", [](const json& j) { return j; }).build(),
               std::invalid_argument);
  EXPECT_THROW(state<Wallet>("W").patch<json>("Foo", reduce).upcast("Foo_v2", "Foo", [](const json& j) { return j; }).build(),
               std::invalid_argument);
  EXPECT_THROW(state<Wallet>("W").patch<json>("Foo_v2", reduce).patch<json>("Foo", reduce)
                   .upcast("Foo", "Foo_v2", [](const json& j) { return j; }).build(),
               std::invalid_argument);
  EXPECT_THROW(state<Wallet>("W").patch<json>("Foo_v2", reduce).upcast("Foo", "Foo_v3", [](const json& j) { return j; }).build(),
               std::invalid_argument);
  EXPECT_THROW(state<Wallet>("W").patch<json>("Foo_v2", reduce).patch<json>("Foo_v02", reduce).build(),
               std::invalid_argument);
  EXPECT_THROW(state<Wallet>("W").patch<json>("Foo_v2", reduce).upcast("Foo", "Foo_v2", [](const json& j) { return j; })
                   .upcast("Foo", "Foo_v2", [](const json& j) { return j; }),
               std::invalid_argument);
  EXPECT_THROW(state<Wallet>("W").version(0), std::invalid_argument);
  EXPECT_NO_THROW(wallet_builder().build());
}

TEST(EventVersion, OlderNamesOfAnEventAreDeprecated) {
  const auto reduce = [](const json&, Wallet w) { return w; };
  const State<Wallet> gaps = state<Wallet>("W").patch<json>("Foo", reduce).patch<json>("Foo_v3", reduce)
                                 .patch<json>("Foo_v1", reduce).build();
  EXPECT_EQ(gaps.model().deprecated, (std::map<std::string, std::string, std::less<>>{{"Foo", "Foo_v3"}}))
      << "gaps are allowed; Foo_v1 is a name of its own";
  const State<Wallet> wallet = wallet_builder().build();
  EXPECT_EQ(wallet.model().deprecated,
            (std::map<std::string, std::string, std::less<>>{{"Deposited", "Deposited_v3"}, {"Deposited_v2", "Deposited_v3"}}));
}

class EventVersionsTest : public DatabaseTest {
 protected:
  State<Wallet> wallet_ = wallet_builder().build();
};

TEST_F(EventVersionsTest, ReducersReadEveryStoredShapeAsTheNewest) {
  const std::string s = stream();
  store_->commit(s, {{"Deposited", {{"cents", 100}}, {}}});
  store_->commit(s, {{"Deposited_v2", {{"amount", {{"cents", 20}}}}, {}}});
  App wallets = app(pool_).with(wallet_).build();
  wallets.do_action("deposit", {s, {"u", "U"}, {}}, Deposit{3});
  wallets.clear_cache();
  const auto loaded = wallets.load(wallet_, s);
  EXPECT_EQ(loaded.state.total, 123);
  EXPECT_EQ(loaded.state.currencies, (std::vector<std::string>{"EUR", "EUR", "USD"}));

  std::vector<std::string> stored;
  Query whole;
  whole.stream = s;
  store_->query(whole, [&](const Committed& event) { stored.push_back(event.name + " " + event.data.dump()); });
  EXPECT_EQ(stored, (std::vector<std::string>{R"(Deposited {"cents":100})", R"(Deposited_v2 {"amount":{"cents":20}})",
                                              R"(Deposited_v3 {"amount":3,"currency":"USD"})"}))
      << "the log is never rewritten";
}

TEST_F(EventVersionsTest, AnActionMayNotEmitADeprecatedEvent) {
  const std::string s = stream();
  App wallets = app(pool_).with(wallet_).build();
  try {
    wallets.do_action("deposit_old_shape", {s, {"u", "U"}, {}}, Deposit{1});
    FAIL() << "a deprecated event was committed";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("Deposited_v3 replaces"), std::string::npos) << error.what();
  }
  EXPECT_EQ(store_->version(s), -1) << "nothing written";
}

TEST_F(EventVersionsTest, ReactionsAndProjectionsReadTheNewestShape) {
  const std::string s = stream("r");
  store_->commit(s, {{"Deposited", {{"cents", 7}}, {}}, {"Deposited_v3", {{"amount", 8}, {"currency", "USD"}}, {}}});
  std::vector<std::string> reacted;
  std::vector<std::string> projected;
  App wallets = app(pool_)
                    .with(wallet_)
                    .with(projection("wallet-projection-" + s)
                              .source(s)
                              .on<DepositedV3>("Deposited_v3",
                                               [&](const DepositedV3& e, const Committed& event, Sql&) {
                                                 projected.push_back(event.name + " " + std::to_string(e.amount));
                                               })
                              .build())
                    .on<DepositedV3>("Deposited_v3")
                    .to(Route{"wallet-reaction-" + s, s})
                    .handle("note", [&](const DepositedV3& e, ReactionContext& context) {
                      reacted.push_back(context.event().name + " " + std::to_string(e.amount) + " " + e.currency);
                    })
                    .build();
  wallets.settle();
  EXPECT_EQ(reacted, (std::vector<std::string>{"Deposited_v3 7 EUR", "Deposited_v3 8 USD"}));
  EXPECT_EQ(projected, (std::vector<std::string>{"Deposited_v3 7", "Deposited_v3 8"}));
  const auto rows = store_->query_streams(StreamFilter::exactly("wallet-reaction-" + s));
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].names);
  EXPECT_EQ(*rows[0].names, (std::vector<std::string>{"Deposited", "Deposited_v2", "Deposited_v3"}))
      << "the row selects the older names too";
}

TEST_F(EventVersionsTest, AHandlerOfAnUpcastNameIsRefused) {
  EXPECT_THROW(app(pool_).with(wallet_).on<json>("Deposited").to("t").handle("h", [](const json&, ReactionContext&) {}).build(),
               std::invalid_argument);
  EXPECT_THROW(app(pool_).with(wallet_).with(projection("p").on<json>("Deposited_v2", [](const json&, const Committed&, Sql&) {}).build()).build(),
               std::invalid_argument);
  const auto reduce = [](const json&, Wallet w) { return w; };
  const State<Wallet> elsewhere = state<Wallet>("Other").patch<json>("Deposited_v4", reduce)
                                      .upcast("Deposited", "Deposited_v4", [](const json& j) { return j; }).build();
  EXPECT_THROW(app(pool_).with(wallet_).with(elsewhere).build(), std::invalid_argument)
      << "two states upcast one event to different versions";
}

// Snapshots: the state's shape changes under a stream that has them.
class StateVersionsTest : public DatabaseTest {
 protected:
  static State<WalletV2> v2(std::int32_t version) {
    return read_old_deposits(state<WalletV2>("Wallet").version(version))
        .patch<DepositedV3>("Deposited_v3",
                            [](const DepositedV3& e, WalletV2 w) {
                              w.total += e.amount;
                              ++w.deposits;
                              return w;
                            })
        .on<Deposit>("deposit")
        .emit([](const Deposit& d, const WalletV2&) { return events(DepositedV3{d.amount, "EUR"}); })
        .build();
  }

  // Three deposits by the first shape of the state, snapshotted after each.
  std::string seed() {
    const std::string s = stream();
    App first = app(pool_).with(wallet_builder().snap_every(1).build()).build();
    for (int amount : {1, 2, 4}) {
      EXPECT_TRUE(first.do_action("deposit", {s, {"u", "U"}, {}}, Deposit{amount}).snapshotted);
    }
    return s;
  }

  // A seeded stream loaded by the second shape at `version`: every snapshot
  // of the first shape is passed over. Returns the stream.
  std::string expect_folded_from_first_event(std::int32_t version) {
    const std::string s = seed();
    App second = app(pool_).with(v2(version)).build();
    const auto loaded = second.load(v2(version), s);
    EXPECT_EQ(loaded.state.total, 7);
    EXPECT_EQ(loaded.state.deposits, 3);
    EXPECT_EQ(loaded.snaps, 0) << "no snapshot restored";
    EXPECT_EQ(loaded.replayed, 6) << "read from the first event, the snapshots passed over";
    EXPECT_EQ(loaded.version, 5) << "the head is still the stream's last version";
    return s;
  }
};

TEST_F(StateVersionsTest, ASnapshotOfAnotherVersionIsPassedOver) {
  const std::string s = expect_folded_from_first_event(2);
  App second = app(pool_).with(v2(2)).build();
  const ActionResult next = second.do_action("deposit", {s, {"u", "U"}, {}}, Deposit{8});
  EXPECT_EQ(next.version, 6);
  EXPECT_EQ(next.attempts, 1) << "the load's version guards the commit: no conflict";
  EXPECT_EQ(next.state_as<WalletV2>().total, 15);
}

TEST_F(StateVersionsTest, ASnapshotItsFromJsonRefusesIsPassedOver) {
  // Still version 1, but WalletV2's from_json needs "deposits", which the
  // first shape's snapshots lack: the stream stays loadable.
  expect_folded_from_first_event(1);
}

TEST_F(StateVersionsTest, ASnapshotOfItsOwnVersionIsRestored) {
  const std::string s = stream();
  App second = app(pool_).with(v2(2)).build();
  store_->commit(s, {{"Deposited", {{"cents", 5}}, {}}});
  store_->commit(s, {{"__snapshot__", {{"total", 5}, {"deposits", 1}}, {}}}, json{{"state_version", 2}});
  store_->commit(s, {{"Deposited_v3", {{"amount", 1}, {"currency", "EUR"}}, {}}});
  const auto loaded = second.load(v2(2), s);
  EXPECT_EQ(loaded.snaps, 1);
  EXPECT_EQ(loaded.replayed, 2) << "the snapshot and the event after it";
  EXPECT_EQ(loaded.state.total, 6);
  EXPECT_EQ(loaded.state.deposits, 2);
}

}  // namespace
}  // namespace act::test
