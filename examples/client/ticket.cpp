// A help-desk ticket: open → assign → close, with the rules that keep the
// workflow honest; a reaction that assigns every new ticket, a projection that
// keeps the open tickets per assignee in a SQL table; then the history, a look
// into the past, and the hash chain.
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

const act::Actor kDispatcher{"bot-dispatch", "auto-assign"};

// Hardware goes to Bob, everything else to Carol.
std::string on_call_for(const std::string& title) {
  for (const char* hardware : {"rinter", "offee", "adge"}) {
    if (title.find(hardware) != std::string::npos) return "bob";
  }
  return "carol";
}

// The read model: open tickets per assignee, kept in the application's own
// tables by handlers that run in the same transaction as the watermark.
act::Projection open_tickets() {
  return act::projection("open-tickets")
      .source("^helpdesk-")
      .setup([](act::Sql& sql) {
        sql.exec("CREATE TABLE IF NOT EXISTS ticket_assignee (ticket text PRIMARY KEY, assignee text NOT NULL)");
        sql.exec("CREATE TABLE IF NOT EXISTS open_tickets (assignee text PRIMARY KEY, open int NOT NULL)");
      })
      .truncate([](act::Sql& sql) { sql.exec("TRUNCATE ticket_assignee, open_tickets"); })
      .on<Assigned>("Assigned",
                    [](const Assigned& assigned, const act::Committed& event, act::Sql& sql) {
                      sql.exec("INSERT INTO ticket_assignee VALUES ($1, $2)", {event.stream, assigned.to});
                      sql.exec("INSERT INTO open_tickets AS o VALUES ($1, 1) "
                               "ON CONFLICT (assignee) DO UPDATE SET open = o.open + 1",
                               {assigned.to});
                    })
      .on<Closed>("Closed",
                  [](const Closed&, const act::Committed& event, act::Sql& sql) {
                    sql.exec("UPDATE open_tickets o SET open = o.open - 1 FROM ticket_assignee t "
                             "WHERE t.ticket = $1 AND o.assignee = t.assignee",
                             {event.stream});
                  })
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
  auto app = act::app(example::connect(argc, argv))
                 .with(tickets)
                 .with(open_tickets())
                 // A new ticket's own stream is its target (found by correlate;
                 // other apps' tickets in the database are not ours to assign).
                 // The handler's action records the Opened event as its cause.
                 .on<Opened>("Opened")
                 .to([](const act::Committed& event) -> std::optional<act::Route> {
                   if (!event.stream.starts_with("helpdesk-")) return std::nullopt;
                   return act::Route{event.stream, event.stream};
                 })
                 .handle("auto_assign",
                         [](const Opened& opened, act::ReactionContext& context) {
                           context.do_action("assign", {context.event().stream, kDispatcher, {}},
                                             Assign{on_call_for(opened.title)});
                         })
                 .build();
  const std::string run = example::run_suffix();
  const std::string stream = "helpdesk-" + run;
  const act::Actor ann{"u-1", "Ann"};
  const act::Actor bob{"u-2", "Bob"};
  std::cout << "== ticket " << stream << "\n";

  show("Ann opens \"Printer on fire\"", app.do_action("open", {stream, ann, {}}, Open{"Printer on fire"}));
  const auto settled = app.settle();  // correlate + drain until quiet (app.start() runs it in the background)
  std::cout << std::left << std::setw(34) << "the auto_assign reaction runs" << "-> "
            << app.load(tickets, stream).state.status << " (" << app.load(tickets, stream).state.assignee << "), "
            << "(settle handled " << settled.drained.handled << " events)\n";
  const auto attempt = [&](const std::string& step, auto&& action) {
    try {
      show(step, action());
    } catch (const act::InvariantError& error) {
      std::cout << std::left << std::setw(34) << step << "refused: " << error.rule() << "\n";
    } catch (const act::ValidationError& error) {
      std::cout << std::left << std::setw(34) << step << "refused: " << error.what() << "\n";
    }
  };
  attempt("Ann assigns it to nobody", [&] { return app.do_action("assign", {stream, ann, {}}, Assign{""}); });
  attempt("Ann assigns it to Carol", [&] { return app.do_action("assign", {stream, ann, {}}, Assign{"carol"}); });
  attempt("Bob closes it", [&] { return app.do_action("close", {stream, bob, {}}, Close{"extinguished"}); });
  attempt("Ann closes it again", [&] { return app.do_action("close", {stream, ann, {}}, Close{"really"}); });

  std::cout << "\n== three more tickets; the projection counts the open ones per assignee\n";
  for (const char* title : {"VPN drops hourly", "Coffee machine leaks", "Badge does not open door 3"}) {
    app.do_action("open", {"helpdesk-" + run + "-" + title[0], ann, {}}, Open{title});
  }
  app.settle();
  app.transact([](act::Sql& sql) {
    for (const act::SqlRow& row : sql.exec("SELECT assignee, open FROM open_tickets ORDER BY assignee"))
      std::cout << "  " << std::left << std::setw(8) << row.text(0) << row.text(1) << " open\n";
  });

  std::cout << "\n== its history\n";
  act::Query history;
  history.stream = stream;
  std::int64_t closed_id = -1;
  app.query(history, [&](const act::Committed& event) {
    const nlohmann::json& causation = event.meta["causation"];
    std::cout << "  v" << event.version << " #" << event.id << " " << std::left << std::setw(9) << event.name
              << std::setw(28) << event.data.dump() << " by " << causation["action"]["actor"]["name"].get<std::string>();
    if (causation.contains("event"))
      std::cout << ", reacting to #" << causation["event"]["id"] << " " << causation["event"]["name"].get<std::string>();
    std::cout << "\n";
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
