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
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "chain_problem.hpp"
#include "command.hpp"
#include "database.hpp"
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

constexpr const char* kBatchSql =
    "SELECT v.stream, v.events, v.valid, v.first_bad_version "
    "FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS s(stream, i) "
    "CROSS JOIN LATERAL act.verify(s.stream) v ORDER BY s.i";

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
  Verifier(pqxx::transaction_base& txn, Progress& progress, Report& report)
      : txn_(txn), progress_(progress), report_(report) {}

  void Add(StreamSize stream) {
    batch_events_ += stream.events;
    batch_.push_back(std::move(stream.stream));
    if (batch_.size() >= kBatchStreams || batch_events_ >= kBatchEvents) Flush();
  }

  void Flush() {
    if (batch_.empty()) return;
    const pqxx::result rows = txn_.exec_prepared("verify_batch", nlohmann::json(batch_).dump());
    for (const pqxx::row& row : rows) {
      events_ += row["events"].as<std::int64_t>();
      if (!row["valid"].as<bool>()) {
        const std::string stream = row["stream"].c_str();
        const int bad = row["first_bad_version"].as<int>();
        report_.Broken(stream, row["events"].as<std::int64_t>(), bad, ChainProblem(txn_, stream, bad));
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
  pqxx::transaction_base& txn_;
  Progress& progress_;
  Report& report_;
  std::vector<std::string> batch_;
  std::int64_t batch_events_ = 0, streams_ = 0, events_ = 0;
};

int Verify(const Database& db, const VerifyArgs& args) {
  return RunConnected(db, [&](pqxx::connection& connection) {
    connection.prepare("verify_batch", kBatchSql);
    pqxx::nontransaction txn{connection};
    CheckStreamFilter(txn, args.filter);
    // act.verify(stream) is planned for the whole log, and with parallel
    // query each call starts workers: on a log of 200,000 streams, 40 ms for
    // a stream of five events that takes 0.2 ms without them.
    txn.exec0("SET max_parallel_workers_per_gather = 0");
    Progress progress{stderr};
    // A first pass counts what there is to check, for the bar and the time
    // left; each pass holds one page of names at a time.
    std::int64_t streams = 0, events = 0;
    for (StreamPages pages{txn, args.filter}; !pages.done();) {
      for (const StreamSize& stream : pages.Next()) {
        ++streams;
        events += stream.events;
      }
      progress.Counting(streams);
    }
    if (streams == 0 && args.filter.stream) {
      progress.Clear();
      throw UsageError(args.filter.regex
                           ? fmt::format("--stream: no stream with events matches {}", *args.filter.stream)
                           : fmt::format("--stream: stream {} has no events", *args.filter.stream));
    }
    progress.Start(streams, events);
    const auto started = std::chrono::steady_clock::now();
    Report report{args.json, progress};
    Verifier verifier{txn, progress, report};
    for (StreamPages pages{txn, args.filter}; !pages.done();)
      for (StreamSize& stream : pages.Next()) verifier.Add(std::move(stream));
    verifier.Flush();
    progress.Finish(verifier.streams(), verifier.events());
    report.Summary(verifier.streams(), verifier.events(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    return report.broken() == 0 ? kOk : kBroken;
  });
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
