// actctl tail: the log's events (or some streams') in id order, never above
// act.horizon(): the last N, or those after an id; with --follow, then each
// new one as act.wait reports the horizon passing what was printed.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "act/errors.hpp"
#include "act/store.hpp"
#include "arguments.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "event_line.hpp"
#include "stop_signals.hpp"
#include "stream_filter.hpp"
#include "terminal.hpp"

namespace actctl {

namespace {

struct TailArgs {
  StreamFilter filter;
  std::optional<std::string> after, limit;
  std::vector<std::string> names;
  bool follow = false, json = false, pii = false, full = false;
};

// Events per act.query call: what one result holds in memory.
constexpr long long kPage = 1000;
// The longest one act.wait lasts, and so how soon a stop request is seen
// while parked; the client library's workers wait in slices of the same
// length (WorkerOptions::wait_slice, client/include/act/drain.hpp).
constexpr std::chrono::milliseconds kWait{250};

class Printer {
 public:
  Printer(act::Store& store, const TailArgs& args)
      : store_(store), args_(args), style_{args.json, !args.json && ColoursWanted(stdout), args.pii, args.full} {}

  // A UsageError naming --stream for a pattern the server cannot compile,
  // before anything is printed: a read past the horizon, which finds nothing.
  void CheckPattern(long long horizon) {
    if (!args_.filter.regex) return;
    try {
      store_.query_stored(Read(horizon, horizon, 1, false), [](const act::StoredEvent&) {});
    } catch (const act::ValidationError& e) {
      if (e.sqlstate() != "2201B") throw;
      throw UsageError(std::string("--stream: ") + e.what());
    }
  }

  // The last `count` events at or below the horizon, oldest first: the id
  // they start at, then forward a page at a time, as After.
  void Last(long long count, long long horizon, const StopSignals* stop) {
    if (count == 0) return;  // no limit would mean every event
    std::optional<long long> first;
    store_.query_stored(Read(std::nullopt, horizon, count, true),
                        [&first](const act::StoredEvent& event) { first = event.id; });
    if (first) After(*first - 1, horizon, count, stop);
  }

  // The events after `after` up to the horizon, at most `limit` (none: all),
  // page by page; returns how far it read: the horizon (or `after`, if that
  // is higher), or the last id printed when the limit or a stop ended it.
  long long After(long long after, long long horizon, std::optional<long long> limit, const StopSignals* stop) {
    while (!stop || !stop->requested()) {
      const long long page = limit ? std::min(kPage, *limit) : kPage;
      if (page == 0) break;
      long long printed = 0;
      store_.query_stored(Read(after, horizon, page, false), [&](const act::StoredEvent& event) {
        fmt::print("{}\n", EventLine(event, style_));
        after = event.id;
        ++printed;
      });
      std::fflush(stdout);
      if (limit) *limit -= printed;
      if (printed < page) return std::max(after, horizon);
    }
    return after;
  }

 private:
  // act.query caps what it returns at the horizon except for one exact
  // stream (a stream's own commits become visible in version order);
  // `before` caps that case too, so that tail never prints an id that a
  // reader of the whole log cannot see yet.
  act::Query Read(std::optional<long long> after, long long horizon, long long max_events, bool backward) const {
    act::Query query;
    query.stream = args_.filter.stream;
    query.stream_exact = !args_.filter.regex;
    if (!args_.names.empty()) query.names = args_.names;
    query.after = after;
    query.before = horizon + 1;
    query.limit = max_events;
    query.backward = backward;
    return query;
  }

  act::Store& store_;
  const TailArgs& args_;
  const EventLineStyle style_;
};

int Tail(const Database& db, const TailArgs& args) {
  std::optional<long long> limit;
  if (args.limit) {
    const std::uint64_t value = ParseCount("--limit", *args.limit);
    if (value > 2147483647) throw UsageError(fmt::format("--limit: {} is beyond 2147483647", value));
    limit = static_cast<long long>(value);
  }
  std::optional<long long> after;
  if (args.after) {
    const std::uint64_t value = ParseCount("--after", *args.after);
    if (value > 9223372036854775806u) throw UsageError(fmt::format("--after: {} is beyond an event id", value));
    after = static_cast<long long>(value);
  }
  if (after && limit && args.follow)
    throw UsageError("--limit with --after takes the first N events after the id; --follow prints them all");
  for (const std::string& name : args.names)
    if (name.empty()) throw UsageError("--names: an event name is empty");
  CheckStreamFilter(args.filter);

  act::Store store(OpenPool(db));
  Printer printer{store, args};
  long long horizon = store.horizon();
  printer.CheckPattern(horizon);
  // Installed before the first read: a stop during a long backlog ends it too.
  std::optional<StopSignals> stop;
  if (args.follow) stop.emplace();
  const StopSignals* stop_signals = stop ? &*stop : nullptr;
  long long cursor = horizon;
  if (after)
    cursor = printer.After(*after, horizon, limit, stop_signals);
  else
    printer.Last(limit.value_or(10), horizon, stop_signals);
  if (!args.follow) return kOk;
  // Everything at or below the horizon that will ever be visible is
  // visible now: once read up to it, nothing below it can appear later.
  while (!stop->requested()) {
    horizon = store.wait(cursor, kWait);
    if (horizon > cursor) cursor = printer.After(cursor, horizon, std::nullopt, stop_signals);
  }
  return kOk;
}

}  // namespace

void AddTail(CLI::App& app, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<TailArgs>();
  CLI::App* tail = app.add_subcommand(
      "tail",
      "Print the log's events in id order, one line each, up to act.horizon(): the last 10 (--limit N), or every one "
      "after --after ID; --follow then prints each new one as it commits, until SIGINT or SIGTERM. Exit 1 on a "
      "database error, 2 for unusable arguments or a connection that cannot be made or is lost");
  AddStreamFilter(*tail, args->filter);
  tail->add_option("--after", args->after,
                   "start after this event id (every event after it, or the first N with --limit)")
      ->type_name("ID");
  tail->add_option("--names", args->names, "only events with these names")->delimiter(',')->type_name("NAME,...");
  tail->add_option("--limit", args->limit, "the last N events (default 10; 0: none), or the first N after --after")
      ->type_name("N");
  tail->add_flag("--follow,-f", args->follow, "keep printing new events as they commit");
  tail->add_flag("--json", args->json,
                 "one JSON object per line: id, stream, version, name, created, data, meta (and pii with --pii)");
  tail->add_flag("--full", args->full,
                 "print data and pii whole: without it a line cuts them after 200 bytes (--json prints them whole)");
  tail->add_flag("--pii", args->pii,
                 "print personal data too (only a role that may read it gets it: act_pii_reader; others see null)");
  tail->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Tail(db, *args); }; });
}

}  // namespace actctl
