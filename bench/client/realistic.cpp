// Realistic workloads through the client library (PERFORMANCE.md, "The C++ client"): a ticket
// workflow (3 actions, 2 invariants), a calculator session (10 actions, then
// the drain feeds a projection), and a shared inventory (10 reservations at
// once on one pre-existing stream, under a stock > 0 invariant).
#include <stdexcept>

#include "crew.hpp"
#include "support.hpp"

namespace {

struct Ticket {
  std::string status = "new";
  std::string assignee;
};
struct TicketOpened {
  std::string title;
};
struct TicketAssigned {
  std::string assignee;
};
struct TicketClosed {
  std::string resolution;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Ticket, status, assignee)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TicketOpened, title)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TicketAssigned, assignee)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TicketClosed, resolution)

act::State<Ticket> ticket_state() {
  return act::state<Ticket>("Ticket")
      .patch<TicketOpened>("TicketOpened", [](const TicketOpened&, Ticket ticket) { return ticket; })
      .patch<TicketAssigned>("TicketAssigned",
                             [](const TicketAssigned& event, Ticket ticket) {
                               ticket.status = "assigned";
                               ticket.assignee = event.assignee;
                               return ticket;
                             })
      .patch<TicketClosed>("TicketClosed",
                           [](const TicketClosed&, Ticket ticket) {
                             ticket.status = "closed";
                             return ticket;
                           })
      .on<TicketOpened>("open")
      .emit([](const TicketOpened& action, const Ticket&) { return action; })
      .on<TicketAssigned>("assign")
      .given([](const Ticket& ticket) { return ticket.status == "new"; }, "must be new")
      .emit([](const TicketAssigned& action, const Ticket&) { return action; })
      .on<TicketClosed>("close")
      .given([](const Ticket& ticket) { return ticket.status == "assigned"; }, "must be assigned")
      .emit([](const TicketClosed& action, const Ticket&) { return action; })
      .build();
}

void ticket_workflow(benchmark::State& state) {
  act::App app = act::app(bench::pool(2)).with(ticket_state()).build();
  bench::measure(
      state,
      [&] {
        const act::Target ticket{bench::stream_name("tk"), bench::actor(), {}};
        app.do_action("open", ticket, TicketOpened{"perf"});
        app.do_action("assign", ticket, TicketAssigned{"alice"});
        app.do_action("close", ticket, TicketClosed{"fixed"});
      },
      {.warmup = 5, .items = 3, .item = "commits"});
}

struct Calc {
  long long value = 0;
};
struct DigitPressed {
  int digit = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Calc, value)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DigitPressed, digit)

act::State<Calc> calc_state() {
  return act::state<Calc>("Calc")
      .patch<DigitPressed>("DigitPressed",
                           [](const DigitPressed& event, Calc calc) {
                             calc.value = calc.value * 10 + event.digit;
                             return calc;
                           })
      .on<DigitPressed>("press")
      .emit([](const DigitPressed& action, const Calc&) { return action; })
      .build();
}

// One row per session: how many digits the projection saw, and the last one.
act::Projection digits(const std::string& prefix) {
  return act::projection("digits-" + prefix)
      .source("^" + prefix + "-")
      .setup([](act::Sql& sql) {
        sql.exec("CREATE TABLE IF NOT EXISTS bench_digits (session text PRIMARY KEY, presses int NOT NULL, last int)");
      })
      .on<DigitPressed>("DigitPressed",
                        [](const DigitPressed& pressed, const act::Committed& event, act::Sql& sql) {
                          sql.exec("INSERT INTO bench_digits AS d VALUES ($1, 1, $2) "
                                   "ON CONFLICT (session) DO UPDATE SET presses = d.presses + 1, last = excluded.last",
                                   {event.stream, pressed.digit});
                        })
      .build();
}

void calculator_session(benchmark::State& state) {
  const std::string prefix = bench::stream_name("calc");
  act::App app = act::app(bench::pool(2)).with(calc_state()).with(digits(prefix)).build();
  int session = 0;
  bench::measure(
      state,
      [&] {
        const act::Target calc{prefix + "-" + std::to_string(++session), bench::actor(), {}};
        for (int i = 0; i < 10; ++i) app.do_action("press", calc, DigitPressed{i % 10});
        std::int64_t handled = 0;
        for (int cycle = 0; handled < 10; ++cycle) {
          if (cycle == 100) throw std::runtime_error("the drain did not project a session's 10 events");
          handled += app.drain().handled;
        }
      },
      {.warmup = 5, .items = 10, .item = "commits"});
}

struct Inventory {
  int stock = 0;
};
struct Restocked {
  int qty = 0;
};
struct Reserved {
  int qty = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Inventory, stock)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Restocked, qty)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Reserved, qty)

act::State<Inventory> inventory_state() {
  return act::state<Inventory>("Inventory")
      .patch<Restocked>("Restocked",
                        [](const Restocked& event, Inventory inventory) {
                          inventory.stock += event.qty;
                          return inventory;
                        })
      .patch<Reserved>("Reserved",
                       [](const Reserved& event, Inventory inventory) {
                         inventory.stock -= event.qty;
                         return inventory;
                       })
      .on<Restocked>("restock")
      .emit([](const Restocked& action, const Inventory&) { return action; })
      .on<Reserved>("reserve")
      .given([](const Inventory& inventory) { return inventory.stock > 0; }, "stock must be positive")
      .retries(50, act::Backoff{std::chrono::milliseconds(0)})
      .emit([](const Reserved& action, const Inventory&) { return action; })
      .build();
}

constexpr int kShoppers = 10;

void shared_inventory(benchmark::State& state) {
  bench::Crew crew(kShoppers);
  act::App app = act::app(bench::pool(kShoppers)).with(inventory_state()).build();
  std::string stream;
  int rounds = 0;
  bench::measure(
      state,
      [&] {
        ++rounds;
        crew.run([&](int) { app.do_action("reserve", {stream, bench::actor(), {}}, Reserved{1}); });
      },
      {.warmup = 5, .items = kShoppers, .item = "commits", .prepare = [&] {
         stream = bench::stream_name("inv");
         app.do_action("restock", {stream, bench::actor(), {}}, Restocked{1000});
       }});
  state.counters["conflicts_per_op"] = static_cast<double>(app.stats().conflicts) / rounds;
}

}  // namespace

BENCHMARK(ticket_workflow)->Name("client/ticket_workflow")->Iterations(bench::iterations(100, 20));
BENCHMARK(calculator_session)->Name("client/calculator_session")->Iterations(bench::iterations(50, 10));
BENCHMARK(shared_inventory)->Name("client/shared_inventory")->Iterations(bench::iterations(50, 10));
