// What an application that lives for years meets: events whose shape
// changed (upcasters, deprecated names), a state whose shape changed under
// old snapshots, commands retried over a flaky network (idempotency keys),
// another process's commits (fresh loads), personal data (a sidecar that
// only some may read, and that can be forgotten) and closing the books
// (a restart from a seed, and a stream that retires itself).
#include <iostream>

#include "example_support.hpp"

// Version 1 of the event stored {"amount": 12.5} (a float in euros);
// version 2 stores cents and a currency.
struct Paid_v2 {
  long cents = 0;
  std::string currency;
};
struct Pay {
  long cents = 0;
};
struct Account {
  long cents = 0;
  int payments = 0;
};
struct AccountClosed {
  std::string reason;
};
struct CloseAccount {
  std::string reason;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Paid_v2, cents, currency)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Pay, cents)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Account, cents, payments)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(AccountClosed, reason)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CloseAccount, reason)

struct Holder {
  std::string name;
  std::string email;
};
struct Opened {
  std::string name;
  std::string email;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Holder, name, email)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Opened, name, email)

act::State<Holder> holder_state() {
  return act::state<Holder>("Holder")
      .patch<Opened>("Opened", [](const Opened& opened, Holder) { return Holder{opened.name, opened.email}; })
      .sensitive("Opened", {"email"})
      .discloses([](const act::Actor& reader) { return reader.id == "dpo"; })
      .on<Opened>("open")
      .emit([](const Opened& open, const Holder&) { return act::events(open); })
      .build();
}

act::State<Account> account_state() {
  return act::state<Account>("Account")
      .version(2)  // Account gained `payments`: snapshots of version 1 are passed over
      .upcast("Paid", "Paid_v2",
              [](const nlohmann::json& v1) {
                return Paid_v2{static_cast<long>(v1.at("amount").get<double>() * 100 + 0.5), "EUR"};
              })
      .patch<Paid_v2>("Paid_v2",
                      [](const Paid_v2& paid, Account account) {
                        account.cents += paid.cents;
                        ++account.payments;
                        return account;
                      })
      .patch<AccountClosed>("AccountClosed", [](const AccountClosed&, Account account) { return account; })
      .on<Pay>("pay")
      .emit([](const Pay& pay, const Account&) { return act::events(Paid_v2{pay.cents, "EUR"}); })
      .on<CloseAccount>("close_account")
      .emit([](const CloseAccount& close, const Account&) { return act::events(AccountClosed{close.reason}); })
      .snap_every(2)
      // A closed account retires itself once every reaction has handled it,
      // its history copied out first.
      .autocloses({.all = {.is = {"AccountClosed"}},
                   .archive = [](const std::string& stream) { std::cout << "archiving " << stream << "\n"; }})
      .build();
}

int main(int argc, char** argv) try {
  const auto pool = example::connect(argc, argv);
  const auto account = account_state();
  const std::string stream = "account-" + example::run_suffix();
  const act::Actor clerk{"u-7", "Clerk"};

  // Written years ago, by the first version of the application: an event of
  // the old shape and a snapshot of the old state (no `payments`).
  act::Store archive(pool);
  archive.commit(stream, {{"Paid", {{"amount", 12.5}}, {}}});
  archive.commit(stream, {{"__snapshot__", {{"cents", 1250}}, {}}}, {{"state_version", 1}});

  auto app = act::app(pool).with(account).build();
  const auto loaded = app.load(account, stream);
  std::cout << "loaded: " << loaded.state.cents << " cents in " << loaded.state.payments
            << " payment(s); the old snapshot passed over, " << loaded.replayed << " rows read\n";

  // A payment retried after its reply was lost is written once.
  act::DoOptions once;
  once.idempotency_key = "payment-" + stream;
  const auto first = app.do_action("pay", {stream, clerk, {}}, Pay{300}, once);
  const auto retry = app.do_action("pay", {stream, clerk, {}}, Pay{300}, once);
  std::cout << "pay 300 twice with one key: versions " << first.version << " and " << retry.version << ", "
            << retry.state_as<Account>().payments << " payments\n";

  // Another process pays; this one's cache is behind until it reads fresh.
  auto other = act::app(pool).with(account).build();
  other.do_action("pay", {stream, clerk, {}}, Pay{50});
  std::cout << "cached: " << app.load(account, stream).state.cents << " cents, fresh: "
            << app.load(account, stream, act::LoadOptions{.fresh = true}).state.cents << " cents\n";

  // The holder's email is kept apart: the clerk sees it redacted, the data
  // protection officer in full, and nobody once it is forgotten.
  const auto holder = holder_state();
  auto holders = act::app(pool).with(holder).build();
  const act::Actor dpo{"dpo", "Data Protection Officer"};
  holders.do_action("open", {"holder-" + stream, clerk, {}}, Opened{"Ann", "ann@example.org"});
  std::cout << "email as the clerk: " << holders.load(holder, "holder-" + stream, clerk).state.email
            << ", as the officer: " << holders.load(holder, "holder-" + stream, dpo).state.email;
  holders.forget("holder-" + stream);
  std::cout << ", forgotten: " << holders.load(holder, "holder-" + stream, dpo).state.email << "\n";

  // Closing the books: a restart keeps the final state as a seed and drops
  // the history; closing the account then retires the stream by itself.
  const act::CloseResult restarted = app.close({act::CloseTarget{stream, true}});
  std::cout << "restarted: " << restarted.truncated.at(stream).deleted << " rows deleted, "
            << app.load(account, stream).state.cents << " cents kept in the seed\n";
  app.do_action("close_account", {stream, clerk, {}}, CloseAccount{"moved abroad"});
  app.settle();
  try {
    app.do_action("pay", {stream, clerk, {}}, Pay{1});
  } catch (const act::StreamClosedError&) {
    std::cout << "retired: a payment to " << stream << " is refused\n";
  }

  // The old name is deprecated: emitting it is refused.
  std::cout << "deprecated: Paid (replaced by " << account.model().deprecated.at("Paid") << ")\n";
  return 0;
} catch (const std::exception& error) {
  std::cerr << "long_lived: " << error.what() << "\n";
  return 1;
}
