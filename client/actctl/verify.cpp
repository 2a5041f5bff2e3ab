// actctl verify: act.verify over the log (or some streams), stream by stream
// in bounded batches so that it can show progress; prints each broken chain
// as it is found and a summary, exit kBroken when any chain is broken.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "act/errors.hpp"
#include "act/log_store.hpp"
#include "chain_problem.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "progress.hpp"
#include "stream_filter.hpp"
#include "stream_pages.hpp"

namespace actctl {

namespace {

struct VerifyArgs {
  StreamFilter filter;
  bool json = false;
};

// A batch closes at this many streams or events (as versions span), so that
// progress moves at least every few hundred milliseconds; a longer stream is
// a batch of its own (act.verify checks a stream in one call).
constexpr std::size_t kBatchStreams = 100;
constexpr std::int64_t kBatchEvents = 20000;

// The result on stdout: each broken chain as it is found, then the summary.
// --json writes one object whose "broken" array is written entry by entry,
// so that a log with many broken chains is not held in memory.
class Report {
 public:
  Report(bool json, Progress& progress) : json_(json), progress_(progress) {
    if (json_) fmt::print("{{\"broken\": [");
  }

  void Broken(const std::string& stream, std::int64_t events, int first_bad_version, const std::string& problem) {
    progress_.Clear();
    if (json_) {
      const nlohmann::ordered_json entry = {
          {"stream", stream}, {"events", events}, {"first_bad_version", first_bad_version}, {"problem", problem}};
      fmt::print("{}\n  {}", broken_ == 0 ? "" : ",",
                 entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    } else {
      fmt::print("broken  {}  version {} of {} events: {}\n", stream, first_bad_version, events, problem);
    }
    std::fflush(stdout);
    ++broken_;
  }

  void Summary(std::int64_t streams, std::int64_t events, double seconds) const {
    if (json_) {
      fmt::print(
          "{}],\n \"streams\": {}, \"events\": {}, \"broken_streams\": {}, \"valid\": {}, \"seconds\": {:.3f}}}\n",
          broken_ == 0 ? "" : "\n", streams, events, broken_, broken_ == 0, seconds);
      return;
    }
    fmt::print("checked {} streams, {} events in {:.1f} s: {}\n", streams, events, seconds,
               broken_ == 0 ? "every hash chain holds" : fmt::format("{} broken", broken_));
  }

  std::int64_t broken() const { return broken_; }

 private:
  const bool json_;
  Progress& progress_;
  std::int64_t broken_ = 0;
};

class Verifier {
 public:
  Verifier(act::LogStore& log, Progress& progress, Report& report) : log_(log), progress_(progress), report_(report) {}

  void Add(act::StreamSpan stream) {
    batch_events_ += stream.events;
    batch_.push_back(std::move(stream.stream));
    if (batch_.size() >= kBatchStreams || batch_events_ >= kBatchEvents) Flush();
  }

  void Flush() {
    if (batch_.empty()) return;
    for (const act::ChainCheck& check : log_.verify_streams(batch_)) {
      events_ += check.events;
      if (!check.valid) {
        const int bad = check.first_bad_version.value_or(0);
        report_.Broken(check.stream, check.events, bad, ChainProblem(log_, check.stream, bad));
      }
    }
    // A stream that lost its events since it was listed has no row: checked, and empty.
    streams_ += static_cast<std::int64_t>(batch_.size());
    batch_.clear();
    batch_events_ = 0;
    progress_.Update(streams_, events_);
  }

  std::int64_t streams() const { return streams_; }
  std::int64_t events() const { return events_; }

 private:
  act::LogStore& log_;
  Progress& progress_;
  Report& report_;
  std::vector<std::string> batch_;
  std::int64_t batch_events_ = 0, streams_ = 0, events_ = 0;
};

// The first pass: what there is to check, for the bar and the time left;
// it holds one page of names at a time. A pattern the server cannot
// compile is a UsageError naming --stream.
std::pair<std::int64_t, std::int64_t> Count(act::LogStore& log, const StreamFilter& filter, Progress& progress) {
  std::int64_t streams = 0, events = 0;
  try {
    for (StreamPages pages{log, filter}; !pages.done();) {
      for (const act::StreamSpan& stream : pages.Next()) {
        ++streams;
        events += stream.events;
      }
      progress.Counting(streams);
    }
  } catch (const act::ValidationError& e) {
    if (e.sqlstate() != "2201B") throw;
    progress.Clear();
    throw UsageError(std::string("--stream: ") + e.what());
  }
  return {streams, events};
}

int Verify(const Database& db, const VerifyArgs& args) {
  CheckStreamFilter(args.filter);
  act::LogStore log(OpenPool(db));
  Progress progress{stderr};
  const auto [streams, events] = Count(log, args.filter, progress);
  if (streams == 0 && args.filter.stream) {
    progress.Clear();
    throw UsageError(args.filter.regex ? fmt::format("--stream: no stream with events matches {}", *args.filter.stream)
                                       : fmt::format("--stream: stream {} has no events", *args.filter.stream));
  }
  progress.Start(streams, events);
  const auto started = std::chrono::steady_clock::now();
  Report report{args.json, progress};
  Verifier verifier{log, progress, report};
  for (StreamPages pages{log, args.filter}; !pages.done();)
    for (act::StreamSpan& stream : pages.Next()) verifier.Add(std::move(stream));
  verifier.Flush();
  progress.Finish(verifier.streams(), verifier.events());
  report.Summary(verifier.streams(), verifier.events(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return report.broken() == 0 ? kOk : kBroken;
}

}  // namespace

void AddVerify(CLI::App& app, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* verify = app.add_subcommand(
      "verify",
      "Recompute the hash chains (act.verify) stream by stream, with progress on stderr; print each broken chain and "
      "a summary. Exit 0 when every chain holds, 3 when one is broken, 1 on a database error, 2 for unusable "
      "arguments (a --stream that selects no stream with events among them) or a connection that cannot be made or "
      "is lost");
  AddStreamFilter(*verify, args->filter);
  verify->add_flag("--json", args->json,
                   "print the result as one JSON object: broken (stream, events, first_bad_version, problem), "
                   "streams, events, broken_streams, valid, seconds");
  verify->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Verify(db, *args); }; });
}

}  // namespace actctl
