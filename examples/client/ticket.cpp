// A help-desk ticket: open → assign → close, with the rules that keep the
// workflow honest, then its history, a look into the past, and the hash chain.
#include <iomanip>
#include <iostream>

#include "example_support.hpp"

struct Ticket {
  std::string status = "new";  // new, open, assigned, closed
  std::string title;
  std::string assignee;
};
struct Opened {
  std::string title;
};
struct Assigned {
  std::string to;
};
struct Closed {
  std::string resolution;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Ticket, status, title, assignee)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Opened, title)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Assigned, to)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Closed, resolution)

// Actions reuse the event shapes as their payloads.
using Open = Opened;
using Assign = Assigned;
using Close = Closed;

namespace {

act::State<Ticket> ticket_state() {
  const auto non_empty = [](const std::string& text) { return !text.empty(); };
  return act::state<Ticket>("Ticket")
      .patch<Opened>("Opened",
                     [](const Opened& event, Ticket ticket) {
                       ticket.status = "open";
                       ticket.title = event.title;
                       return ticket;
                     })
      .patch<Assigned>("Assigned",
                       [](const Assigned& event, Ticket ticket) {
                         ticket.status = "assigned";
                         ticket.assignee = event.to;
                         return ticket;
                       })
      .patch<Closed>("Closed",
                     [](const Closed&, Ticket ticket) {
                       ticket.status = "closed";
                       return ticket;
                     })
      .on<Open>("open")
      .validate("title", [=](const Open& action) { return non_empty(action.title); }, "must not be empty")
      .given([](const Ticket& ticket) { return ticket.status == "new"; }, "a ticket opens once")
      .emit([](const Open& action, const Ticket&) { return Opened{action.title}; })
      .on<Assign>("assign")
      .validate("to", [=](const Assign& action) { return non_empty(action.to); }, "must name someone")
      .given([](const Ticket& ticket) { return ticket.status == "open"; }, "only open tickets can be assigned")
      .emit([](const Assign& action, const Ticket&) { return Assigned{action.to}; })
      .on<Close>("close")
      .given([](const Ticket& ticket) { return ticket.status == "assigned"; }, "only assigned tickets can be closed")
      .emit([](const Close& action, const Ticket&) { return Closed{action.resolution}; })
      .build();
}

void show(const std::string& step, const act::ActionResult& result) {
  const auto& ticket = result.state_as<Ticket>();
  std::cout << std::left << std::setw(34) << step << "-> " << ticket.status
            << (ticket.assignee.empty() ? "" : " (" + ticket.assignee + ")") << ", version " << result.version << "\n";
}

}  // namespace

int main(int argc, char** argv) try {
  const auto tickets = ticket_state();
  auto app = act::app(example::connect(argc, argv)).with(tickets).build();
  const std::string stream = "ticket-" + example::run_suffix();
  const act::Actor ann{"u-1", "Ann"};
  const act::Actor bob{"u-2", "Bob"};
  std::cout << "== ticket " << stream << "\n";

  show("Ann opens \"Printer on fire\"", app.do_action("open", {stream, ann, {}}, Open{"Printer on fire"}));
  const auto attempt = [&](const std::string& step, auto&& action) {
    try {
      show(step, action());
    } catch (const act::InvariantError& error) {
      std::cout << std::left << std::setw(34) << step << "refused: " << error.rule() << "\n";
    } catch (const act::ValidationError& error) {
      std::cout << std::left << std::setw(34) << step << "refused: " << error.what() << "\n";
    }
  };
  attempt("Ann closes it right away", [&] { return app.do_action("close", {stream, ann, {}}, Close{"fixed?"}); });
  attempt("Ann assigns it to nobody", [&] { return app.do_action("assign", {stream, ann, {}}, Assign{""}); });
  attempt("Ann assigns it to Bob", [&] { return app.do_action("assign", {stream, ann, {}}, Assign{"bob"}); });
  attempt("Bob closes it", [&] { return app.do_action("close", {stream, bob, {}}, Close{"extinguished"}); });
  attempt("Ann assigns it again", [&] { return app.do_action("assign", {stream, ann, {}}, Assign{"carol"}); });

  std::cout << "\n== its history\n";
  act::Query history;
  history.stream = stream;
  std::int64_t closed_id = -1;
  app.query(history, [&](const act::Committed& event) {
    std::cout << "  v" << event.version << " #" << event.id << " " << std::left << std::setw(9) << event.name
              << event.data.dump() << "  by " << event.meta["causation"]["action"]["actor"]["name"].get<std::string>()
              << "\n";
    if (event.name == "Closed") closed_id = event.id;
  });

  const auto before_close = app.load(tickets, stream, act::AsOf{closed_id, {}});
  std::cout << "\n== just before it closed (time travel to id " << closed_id << "): " << before_close.state.status
            << ", assigned to " << before_close.state.assignee << "\n";

  for (const auto& check : app.store().verify(stream)) {
    std::cout << "== hash chain of " << check.stream << ": " << check.events << " events, "
              << (check.valid ? "valid" : "BROKEN") << "\n";
  }
  return 0;
} catch (const std::exception& error) {
  std::cerr << "ticket: " << error.what() << "\n";
  return 1;
}
