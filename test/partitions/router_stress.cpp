// partition_router_stress: a commit storm, drain under churn and killed
// workers across every partition of a partitioned deployment, through the
// PL/Proxy router alone (docs/scale-out.md), as a caller that speaks only SQL.
//
//   partition_router_stress [ROUTER_CONNINFO] [--churn-seconds N] [--without-ack-counters]
//
// The connect string may come from ACT_ROUTER instead (libpq's PG* variables
// apply under it). Committers commit to streams spread over all partitions
// with act.commit and an expected version (a 40001 is a retry); drainers walk
// the partitions in turn with act.claim_events_p and act.ack_p for one
// subscription target whose pattern source gives it a row in every
// partition; in rounds, drainers are SIGKILLed in the middle of a batch and
// at random moments; the survivors take the leases over once they expire.
// Then each property below is printed as "ok PROPERTY" or "FAIL PROPERTY:
// what broke it", and a last line "router_stress: {...}" with the figures.
// Exits 1 on any violation, 2 when the run itself could not be made.
//
// The run must be alone on the partitions: nothing else may commit (each
// watermark must end at its partition's horizon) or acknowledge (the ack
// counters are per database). The counters need pg_act preloaded on the
// partitions; --without-ack-counters skips that one property otherwise.
//
// Why the proof is built this way
// -------------------------------
// A drainer's records live in the router database, its acks in a partition
// database, and no transaction spans both: a PL/Proxy call commits on its
// partition when it returns, whatever the router's transaction does next.
// Recording a batch in the router transaction that issues act.ack_p and
// committing it only when the ack returned the lease is not sound: a drainer
// killed after the partition committed the ack, before the router committed
// the record, leaves acknowledged events recorded nowhere, and the checker
// could only call that a loss or excuse every loss.
//
// So a batch is written down around its ack, each step its own transaction:
//   1. intent, before anything is acknowledged: the batch (partition, drainer,
//      the watermark it was claimed at, its last id, its events in order) is
//      committed in the router database;
//   2. act.ack_p, with the batch's last id as the new watermark;
//   3. outcome: whether the ack returned the lease (true: it landed; false:
//      the lease had passed to another drainer and nothing was written).
// A drainer killed between 1 and 3 leaves a batch whose outcome is unknown.
//
// Which batches landed is then read from the watermarks, not taken on the
// drainers' word. An ack that lands moves its row's watermark from the `at`
// its holder claimed at to the batch's last id, and clears the lease, so the
// next ack that lands is by a drainer that claimed at that new watermark.
// Every value a row's watermark took is thus the initial one, the final one
// or the claimed `at` of a recorded batch (a drainer acks only once its
// intent is committed): sorted, they are the chain w0 < w1 < ... < wn, and
// each link wi -> wi+1 must be exactly one landed batch claimed at wi whose
// last id is wi+1.
//   - No candidate that could have landed (outcome true or unknown): an ack
//     moved the watermark over events nobody recorded handling: lost.
//   - Two candidates that say they landed: the same events acknowledged twice.
//   - A batch that says it landed but is no link: an ack the watermarks skip.
// A link whose one candidate has an unknown outcome is a killed drainer's ack
// that landed. What no drainer can tell (a killed drainer's ack landing on a
// lease another drainer held too) the partitions count themselves:
// pg_act_acks_total counts each row an ack updated, when it commits, so each
// partition must count exactly one ack per link. A claim with nothing to hand
// over yet hands its lease back with a `due` in the past, which act.ack
// applies without returning or counting it: every counted ack moved a
// watermark.
//
// The landed batches' events, in link order, must then be exactly the
// partition's log of the run's streams, each once, each stream's versions 0,
// 1, 2, ... in order and its ids ascending. Events handled again are allowed
// only in batches whose ack did not land (a drainer killed holding a batch,
// or one whose lease passed on); each event's one landed handling is what is
// counted.
#include <libpq-fe.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "pq_session.hpp"
#include "processes.hpp"
#include "shared.hpp"

namespace {

using stress::Add;
using stress::Clock;
using stress::Get;
using stress::Processes;
using stress::Set;
using stress::Shared;
using namespace std::chrono_literals;

constexpr int kCommitters = 4;
constexpr int kSurvivors = 2;
constexpr std::size_t kStreamsPerPartition = 6;  // shared by all committers: same-stream races
constexpr int kLeaseMs = 1000;                   // short: a killed drainer's lease expires within a round
constexpr int kMaxEvents = 40;                   // per claimed batch
constexpr auto kRoundSpacing = 1500ms;           // between rounds of kills
constexpr auto kVictimFindsBatch = 5s;           // a holding victim with no batch by then is killed anyway
constexpr auto kDrainOut = 15s;                  // after the churn, for the survivors to finish
constexpr auto kGrace = 8s;                      // on top of both: the deadline every child is killed at

// Run-unique names, so a second run on the same deployment starts clean.
struct Names {
  std::string prefix;  // of the run's streams
  std::string target;  // the subscription's stream
  std::string lane;    // claims take the run's row alone, whatever else is subscribed
  std::string source;  // the pattern: a row in every partition
};

Names MakeNames() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const std::string run =
      std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count() % 100000000) + "x" +
      std::to_string(getpid());
  const std::string prefix = "rstress-" + run + "-";
  return {prefix, prefix + "target", "rstress-" + run, "^" + prefix + "s[0-9]+$"};
}

struct Stream {
  std::string name;
  int partition = 0;
};

struct Setup {
  std::string conninfo;
  Names names;
  int partitions = 0;
  std::vector<Stream> streams;
};

// PL/Proxy reports dropped connections as notices; the tallies say what matters.
void IgnoreNotice(void*, const char*) {}

pq::Connection ConnectRouter(const std::string& conninfo) {
  pq::Connection router = pq::Connect(conninfo);
  PQsetNoticeProcessor(router.get(), IgnoreNotice, nullptr);
  // No call of a run that is over within a minute waits longer than this.
  pq::Run(router.get(), "SET statement_timeout = '20s'");
  return router;
}

std::string Text(const PGresult* rows, int row, int column) { return PQgetvalue(rows, row, column); }
long long Number(const PGresult* rows, int row, int column) { return std::atoll(PQgetvalue(rows, row, column)); }
bool IsNull(const PGresult* rows, int row, int column) { return PQgetisnull(rows, row, column) == 1; }
std::string Arg(long long value) { return std::to_string(value); }

// The records of the run, in the router database (the router keeps no data
// of its own in schema act, so they go in a schema of their own).
void CreateRecords(PGconn* router) {
  pq::Run(router, "DROP SCHEMA IF EXISTS router_stress CASCADE");
  pq::Run(router, "CREATE SCHEMA router_stress");
  pq::Run(router, "CREATE TABLE router_stress.committed (stream text, version int, id bigint)");
  pq::Run(router,
          "CREATE TABLE router_stress.batches (id bigserial PRIMARY KEY, partition int, drainer text, "
          "claimed_at bigint, last_id bigint, landed boolean)");  // landed NULL: the drainer died before knowing
  pq::Run(router,
          "CREATE TABLE router_stress.handled (batch bigint REFERENCES router_stress.batches, position int, "
          "id bigint, stream text, version int)");
}

// Stream names until each partition has its share, placed by the router's own act.partition_of.
std::vector<Stream> PickStreams(PGconn* router, const Names& names, int partitions) {
  pq::Result placed =
      pq::Run(router, "SELECT s, act.partition_of(s) FROM generate_series(0, 999) AS i, concat($1::text, 's', i) AS s",
              {names.prefix});
  std::vector<Stream> streams;
  std::vector<std::size_t> per_partition(static_cast<std::size_t>(partitions));
  for (int row = 0; row < PQntuples(placed.get()); ++row) {
    const int partition = static_cast<int>(Number(placed.get(), row, 1));
    std::size_t& count = per_partition[static_cast<std::size_t>(partition)];
    if (count == kStreamsPerPartition) continue;
    ++count;
    streams.push_back({Text(placed.get(), row, 0), partition});
  }
  if (streams.size() != kStreamsPerPartition * per_partition.size())
    throw std::runtime_error("1000 stream names do not cover every partition");
  return streams;
}

// ---- committers ----------------------------------------------------------

struct CommitterTally {
  long commits;
  long events;
  long conflicts;  // 40001: another committer took the version first; retried
};

// What act.commit returned goes into router_stress.committed in the same
// statement. Committers are stopped, never killed, so no commit goes unrecorded.
constexpr const char* kCommitSql =
    "INSERT INTO router_stress.committed (stream, version, id) "
    "SELECT c.stream, c.version, c.id FROM act.commit($1, $2::jsonb, '{}', $3::bigint) AS c RETURNING version";

std::string EventsJson(int count, long n) {
  std::string events = "[";
  for (int i = 0; i < count; ++i)
    events += std::string(i == 0 ? "" : ", ") + R"({"name": "Churned", "data": {"n": )" + std::to_string(n) + "}}";
  return events + "]";
}

// Commits 1 to 3 events at a time to a random stream of the shared set, with
// the head version it last saw as the expected version, until `stop`.
int RunCommitter(const Setup& setup, CommitterTally& tally, long& stop) {
  std::mt19937 random(static_cast<unsigned>(getpid()));
  std::uniform_int_distribution<std::size_t> pick_stream(0, setup.streams.size() - 1);
  std::uniform_int_distribution<int> pick_count(1, 3);
  pq::Connection router = ConnectRouter(setup.conninfo);
  std::map<std::string, long long> heads;  // the version each stream is believed to be at; -1: none yet
  for (long n = 0; !Get(stop); ++n) {
    const std::string& stream = setup.streams[pick_stream(random)].name;
    const auto head = heads.try_emplace(stream, -1).first;
    try {
      pq::Result committed =
          pq::Run(router.get(), kCommitSql, {stream, EventsJson(pick_count(random), n), Arg(head->second)});
      const int events = PQntuples(committed.get());
      head->second = Number(committed.get(), events - 1, 0);
      Add(tally.commits, 1);
      Add(tally.events, events);
    } catch (const pq::Error& error) {
      if (error.sqlstate != "40001") throw;
      Add(tally.conflicts, 1);
      head->second = Number(pq::Run(router.get(), "SELECT act.version($1)", {stream}).get(), 0, 0);
    }
  }
  return 0;
}

// ---- drainers ------------------------------------------------------------

struct DrainerTally {
  long batches;       // acks that returned the lease
  long events;        // in those batches
  long refused;       // acks that did not: the lease had passed on
  long empty_claims;  // nothing visible to hand over yet: the lease handed back
  long in_batch;      // 1 from the intent's commit until the outcome's
};

struct DrainerPlan {
  std::string by;  // the lease holder's name, unique to the process
  int first_partition = 0;
  bool holds_batch = false;  // a victim that waits inside its first batch to be killed
};

// One row per claimed subscription row: for the run's lane there is one per
// partition. last_id is the last of the handed events (NULL when none).
constexpr const char* kClaimSql =
    "SELECT c.stream, c.at, c.lagging, c.events, (c.events -> -1 ->> 'id')::bigint, jsonb_array_length(c.events) "
    "FROM act.claim_events_p($1::int, 1, 0, $2, $3::int, $4, $5::int) AS c";
constexpr const char* kIntentSql =
    "WITH batch AS ("
    "  INSERT INTO router_stress.batches (partition, drainer, claimed_at, last_id) VALUES ($1::int, $2, $3::bigint, $4::bigint)"
    "  RETURNING id"
    "), handled AS ("
    "  INSERT INTO router_stress.handled (batch, position, id, stream, version)"
    "  SELECT batch.id, e.position, (e.event ->> 'id')::bigint, e.event ->> 'stream', (e.event ->> 'version')::int"
    "  FROM batch, jsonb_array_elements($5::jsonb) WITH ORDINALITY AS e(event, position)"
    ") SELECT id FROM batch";
constexpr const char* kAckSql =
    "SELECT count(*) FROM act.ack_p($1::int, jsonb_build_array(jsonb_build_object("
    "  'stream', $2::text, 'by', $3::text, 'at', $4::bigint, 'lagging', $5::boolean)))";
// A `due` in the past frees the row at once and, unlike an ack, is neither
// returned nor counted (see the top of the file).
constexpr const char* kHandBackSql =
    "SELECT count(*) FROM act.ack_p($1::int, jsonb_build_array(jsonb_build_object("
    "  'stream', $2::text, 'by', $3::text, 'at', $4::bigint, 'lagging', $5::boolean, 'due', 0)))";
constexpr const char* kOutcomeSql = "UPDATE router_stress.batches SET landed = $2::boolean WHERE id = $1::bigint";

// Per-partition back-off: a partition with nothing to claim is tried again
// after 5 ms, doubling up to 200 ms while it stays empty.
class PartitionBackoff {
 public:
  explicit PartitionBackoff(int partitions)
      : next_try_(static_cast<std::size_t>(partitions), Clock::now()), delay_(static_cast<std::size_t>(partitions)) {}

  // The first partition from `from` on (round-robin) that may be tried now,
  // after sleeping until one may.
  int NextReady(int from) {
    const int count = static_cast<int>(next_try_.size());
    for (;;) {
      const auto now = Clock::now();
      for (int step = 0; step < count; ++step) {
        const int partition = (from + step) % count;
        if (next_try_[static_cast<std::size_t>(partition)] <= now) return partition;
      }
      std::this_thread::sleep_until(*std::min_element(next_try_.begin(), next_try_.end()));
    }
  }
  void Empty(int partition) {
    auto& delay = delay_[static_cast<std::size_t>(partition)];
    delay = std::clamp(delay * 2, std::chrono::milliseconds(5), std::chrono::milliseconds(200));
    next_try_[static_cast<std::size_t>(partition)] = Clock::now() + delay;
  }
  void Busy(int partition) { delay_[static_cast<std::size_t>(partition)] = std::chrono::milliseconds(0); }

 private:
  std::vector<Clock::time_point> next_try_;
  std::vector<std::chrono::milliseconds> delay_;
};

// Claims, records the intent, acknowledges, records the outcome, one
// partition after the other, until `stop`.
int RunDrainer(const Setup& setup, const DrainerPlan& plan, DrainerTally& tally, long& stop) {
  pq::Connection router = ConnectRouter(setup.conninfo);
  PartitionBackoff backoff(setup.partitions);
  int partition = plan.first_partition % setup.partitions;
  while (!Get(stop)) {
    partition = backoff.NextReady(partition);
    const std::string partition_arg = std::to_string(partition);
    pq::Result claimed =
        pq::Run(router.get(), kClaimSql, {partition_arg, plan.by, Arg(kLeaseMs), setup.names.lane, Arg(kMaxEvents)});
    if (PQntuples(claimed.get()) == 0) {
      backoff.Empty(partition);
    } else {
      backoff.Busy(partition);
      const PGresult* row = claimed.get();
      const std::string stream = Text(row, 0, 0), at = Text(row, 0, 1),
                        lagging = Text(row, 0, 2) == "t" ? "true" : "false";
      if (Number(row, 0, 5) == 0) {
        pq::Run(router.get(), kHandBackSql, {partition_arg, stream, plan.by, at, lagging});
        Add(tally.empty_claims, 1);
      } else {
        const std::string last_id = Text(row, 0, 4);
        pq::Result intent = pq::Run(router.get(), kIntentSql, {partition_arg, plan.by, at, last_id, Text(row, 0, 3)});
        const std::string batch = Text(intent.get(), 0, 0);
        Set(tally.in_batch, 1);
        while (plan.holds_batch) std::this_thread::sleep_for(1s);  // until SIGKILL
        const bool landed =
            Number(pq::Run(router.get(), kAckSql, {partition_arg, stream, plan.by, last_id, lagging}).get(), 0, 0) > 0;
        pq::Run(router.get(), kOutcomeSql, {batch, landed ? "true" : "false"});
        Set(tally.in_batch, 0);
        Add(landed ? tally.batches : tally.refused, 1);
        if (landed) Add(tally.events, Number(row, 0, 5));
      }
    }
    partition = (partition + 1) % setup.partitions;
  }
  return 0;
}

// ---- what the partitions say ---------------------------------------------

struct PartitionState {
  long long watermark = -1;  // the run's subscription row's `at`
  long long horizon = -1;
  std::optional<long long> acks_counted;  // pg_act_acks_total; none in fenced mode
};

std::vector<PartitionState> ReadPartitions(PGconn* router, const Setup& setup) {
  const std::string filter = R"({"stream": ")" + setup.names.target + R"(", "stream_exact": true})";
  std::vector<PartitionState> states;
  for (int partition = 0; partition < setup.partitions; ++partition) {
    const std::string arg = std::to_string(partition);
    PartitionState state;
    pq::Result row = pq::Run(router, "SELECT s.at FROM act.query_streams_p($1::int, $2::jsonb) AS s", {arg, filter});
    if (PQntuples(row.get()) != 1)
      throw std::runtime_error("partition " + arg + " has no row of the subscription " + setup.names.target);
    state.watermark = Number(row.get(), 0, 0);
    state.horizon = Number(pq::Run(router, "SELECT act.horizon_p($1::int)", {arg}).get(), 0, 0);
    pq::Result acks =
        pq::Run(router, "SELECT value::bigint FROM act.metrics_p($1::int) WHERE metric = 'pg_act_acks_total'", {arg});
    if (PQntuples(acks.get()) == 1) state.acks_counted = Number(acks.get(), 0, 0);
    states.push_back(state);
  }
  return states;
}

bool Drained(PGconn* router, const Setup& setup) {
  for (const PartitionState& state : ReadPartitions(router, setup))
    if (state.watermark != state.horizon) return false;
  return true;
}

// ---- the run's records, loaded back ---------------------------------------

struct Event {
  long long id = 0;
  std::string stream;
  int version = 0;
};

struct Batch {
  long long id = 0;
  int partition = 0;
  std::string drainer;
  long long claimed_at = 0;
  long long last_id = 0;
  std::optional<bool> landed;  // none: its drainer was killed before it knew
  std::vector<Event> events;
};

std::vector<Event> Events(const PGresult* rows, int first_column) {
  std::vector<Event> events;
  for (int row = 0; row < PQntuples(rows); ++row)
    events.push_back({Number(rows, row, first_column), Text(rows, row, first_column + 1),
                      static_cast<int>(Number(rows, row, first_column + 2))});
  return events;
}

std::vector<Batch> LoadBatches(PGconn* router) {
  pq::Result rows = pq::Run(
      router, "SELECT id, partition, drainer, claimed_at, last_id, landed FROM router_stress.batches ORDER BY id");
  std::vector<Batch> batches;
  std::map<long long, std::size_t> index;
  for (int row = 0; row < PQntuples(rows.get()); ++row) {
    Batch batch{Number(rows.get(), row, 0),
                static_cast<int>(Number(rows.get(), row, 1)),
                Text(rows.get(), row, 2),
                Number(rows.get(), row, 3),
                Number(rows.get(), row, 4),
                std::nullopt,
                {}};
    if (!IsNull(rows.get(), row, 5)) batch.landed = Text(rows.get(), row, 5) == "t";
    index[batch.id] = batches.size();
    batches.push_back(std::move(batch));
  }
  pq::Result handled =
      pq::Run(router, "SELECT batch, id, stream, version FROM router_stress.handled ORDER BY batch, position");
  const std::vector<Event> events = Events(handled.get(), 1);
  for (int row = 0; row < PQntuples(handled.get()); ++row)
    batches[index.at(Number(handled.get(), row, 0))].events.push_back(events[static_cast<std::size_t>(row)]);
  return batches;
}

// The run's events in one partition's log, in id order.
std::vector<Event> LoadLog(PGconn* router, const Setup& setup, int partition) {
  pq::Result rows =
      pq::Run(router,
              "SELECT e.id, e.stream, e.version FROM act.query_p($1::int, stream => $2, stream_exact => false) AS e "
              "ORDER BY e.id",
              {std::to_string(partition), setup.names.source});
  return Events(rows.get(), 0);
}

// ---- the checks ----------------------------------------------------------

enum Property : std::size_t {
  kCommits,
  kNothingLost,
  kNothingTwice,
  kAckChain,
  kAckCounters,
  kStreamOrder,
  kPartitionOrder,
  kWatermarks,
  kChurn,
  kPropertyCount
};

constexpr std::array<std::string_view, kPropertyCount> kPropertyNames = {
    "commits: each partition's log holds exactly what act.commit returned, versions gapless",
    "nothing lost: every committed event handled by a batch whose ack landed",
    "nothing twice: no event acknowledged twice",
    "acks: each watermark move is one recorded batch, each landed ack one move",
    "acks: each partition counted one ack per watermark move",
    "per-stream order: each stream's versions handled 0, 1, 2, ... in order",
    "per-partition order: ids ascending in every batch and along each stream",
    "watermarks: the subscription's row in every partition reached the partition's horizon",
    "churn: every partition written, drainers killed in batches, their leases taken over, no process failed",
};

class Findings {
 public:
  void Violation(Property property, std::string what) { violations_[property].push_back(std::move(what)); }

  // One line per property; returns how many were violated.
  int Print() const {
    int violated = 0;
    for (std::size_t property = 0; property < kPropertyCount; ++property) {
      const std::vector<std::string>& found = violations_[property];
      if (found.empty()) {
        std::printf("ok %s\n", std::string(kPropertyNames[property]).c_str());
        continue;
      }
      ++violated;
      std::printf("FAIL %s: %s", std::string(kPropertyNames[property]).c_str(), found.front().c_str());
      if (found.size() > 1) std::printf(" (and %zu more)", found.size() - 1);
      std::printf("\n");
    }
    return violated;
  }

 private:
  std::array<std::vector<std::string>, kPropertyCount> violations_;
};

std::string Describe(const Event& event) {
  return "id " + std::to_string(event.id) + " (" + event.stream + " v" + std::to_string(event.version) + ")";
}
std::string Describe(const Batch& batch) {
  return "batch " + std::to_string(batch.id) + " of " + batch.drainer + " (claimed at " +
         std::to_string(batch.claimed_at) + ", last id " + std::to_string(batch.last_id) + ")";
}

struct PartitionRun {
  int partition = 0;
  PartitionState before, after;
  std::vector<Event> log;
  std::vector<const Batch*> batches;  // recorded in this partition, in recording order
};

struct ChainFigures {
  long links = 0;
  long unknown_landed = 0;    // links whose batch's drainer was killed before it knew
  long rehandled_events = 0;  // in batches whose ack did not land
};

// The landed batches of one partition, in chain order (see the top of the file).
std::vector<const Batch*> LandedChain(const PartitionRun& run, Findings& findings, ChainFigures& figures) {
  const std::string where = "partition " + std::to_string(run.partition) + ": ";
  std::set<long long> points = {run.before.watermark, run.after.watermark};
  for (const Batch* batch : run.batches) {
    if (batch->claimed_at < run.before.watermark || batch->claimed_at > run.after.watermark)
      findings.Violation(kAckChain, where + Describe(*batch) + " outside the watermarks " +
                                        std::to_string(run.before.watermark) + " .. " +
                                        std::to_string(run.after.watermark));
    else
      points.insert(batch->claimed_at);
  }
  std::vector<const Batch*> chain;
  std::set<const Batch*> in_chain, reported_twice;
  for (auto from = points.begin(), to = std::next(from); to != points.end(); ++from, ++to) {
    std::vector<const Batch*> said_landed, unknown;
    for (const Batch* batch : run.batches) {
      if (batch->claimed_at != *from || batch->last_id != *to) continue;
      if (!batch->landed)
        unknown.push_back(batch);
      else if (*batch->landed)
        said_landed.push_back(batch);
    }
    const std::string move = "the watermark's move " + std::to_string(*from) + " -> " + std::to_string(*to);
    if (said_landed.size() > 1) {
      findings.Violation(kNothingTwice, where + move + " acknowledged by " + Describe(*said_landed[0]) + " and " +
                                            Describe(*said_landed[1]));
      reported_twice.insert(said_landed.begin(), said_landed.end());
    }
    if (said_landed.empty() && unknown.empty()) {
      findings.Violation(kAckChain, where + move + " is no recorded batch whose ack could have landed");
      continue;
    }
    const Batch* landed = said_landed.empty() ? unknown.front() : said_landed.front();
    if (said_landed.empty()) ++figures.unknown_landed;
    chain.push_back(landed);
    in_chain.insert(landed);
  }
  figures.links += static_cast<long>(chain.size());
  for (const Batch* batch : run.batches) {
    if (in_chain.contains(batch)) continue;
    figures.rehandled_events += static_cast<long>(batch->events.size());
    if (batch->landed == true && !reported_twice.contains(batch))
      findings.Violation(kAckChain,
                         where + Describe(*batch) + " says its ack landed; the watermark never made that move");
  }
  return chain;
}

// The log against what act.commit returned, and each stream's versions gapless.
void CheckCommits(const PartitionRun& run, const std::vector<Event>& committed, Findings& findings) {
  const std::string where = "partition " + std::to_string(run.partition) + ": ";
  std::map<long long, const Event*> returned;
  for (const Event& event : committed) returned[event.id] = &event;
  std::map<std::string, int> next_version;
  for (const Event& event : run.log) {
    const auto found = returned.find(event.id);
    if (found == returned.end())
      findings.Violation(kCommits, where + "the log holds " + Describe(event) + ", which no act.commit returned");
    else if (found->second->stream != event.stream || found->second->version != event.version)
      findings.Violation(
          kCommits, where + "the log holds " + Describe(event) + ", act.commit returned " + Describe(*found->second));
    if (found != returned.end()) returned.erase(found);
    int& expected = next_version[event.stream];
    if (event.version != expected)
      findings.Violation(kCommits,
                         where + "the log's " + Describe(event) + " follows version " + std::to_string(expected - 1));
    expected = event.version + 1;
  }
  for (const auto& [id, event] : returned)
    findings.Violation(kCommits, where + "act.commit returned " + Describe(*event) + ", which the log does not hold");
}

// The landed batches' events, in chain order, against the log.
void CheckHandled(const PartitionRun& run, const std::vector<const Batch*>& chain, Findings& findings) {
  const std::string where = "partition " + std::to_string(run.partition) + ": ";
  std::map<long long, const Event*> log;
  for (const Event& event : run.log) log[event.id] = &event;
  std::map<long long, int> times_handled;
  std::map<std::string, int> next_version;
  std::map<std::string, long long> last_id;
  for (const Batch* batch : chain) {
    for (const Event& event : batch->events) {
      if (++times_handled[event.id] == 2)
        findings.Violation(kNothingTwice, where + Describe(event) + " handled twice by landed batches");
      const auto in_log = log.find(event.id);
      if (in_log == log.end() || in_log->second->stream != event.stream || in_log->second->version != event.version)
        findings.Violation(kNothingLost,
                           where + Describe(*batch) + " handed " + Describe(event) + ", not an event of the log");
      int& expected = next_version[event.stream];
      if (event.version != expected)
        findings.Violation(kStreamOrder,
                           where + Describe(event) + " handled where version " + std::to_string(expected) + " was due");
      expected = event.version + 1;
      const auto previous = last_id.find(event.stream);
      if (previous != last_id.end() && previous->second >= event.id)
        findings.Violation(kPartitionOrder, where + Describe(event) + " handled after id " +
                                                std::to_string(previous->second) + " of its stream");
      last_id[event.stream] = event.id;
    }
  }
  for (const Event& event : run.log)
    if (!times_handled.contains(event.id))
      findings.Violation(kNothingLost, where + Describe(event) + " was never handled by a batch whose ack landed");
}

// Every recorded batch, landed or not: its events in id order within what it
// was claimed for, and no event in two batches that both say they landed.
void CheckBatches(const std::vector<Batch>& batches, Findings& findings) {
  std::map<std::pair<int, long long>, const Batch*> said_landed;
  for (const Batch& batch : batches) {
    const std::string where = "partition " + std::to_string(batch.partition) + ": " + Describe(batch) + " ";
    long long previous = batch.claimed_at;
    for (const Event& event : batch.events) {
      if (event.id <= previous || event.id > batch.last_id)
        findings.Violation(kPartitionOrder,
                           where + "hands " + Describe(event) + " after id " + std::to_string(previous));
      previous = event.id;
      if (batch.landed != true) continue;
      const auto [earlier, first] = said_landed.try_emplace({batch.partition, event.id}, &batch);
      if (!first)
        findings.Violation(kNothingTwice,
                           where + "and " + Describe(*earlier->second) + " both acknowledged " + Describe(event));
    }
    if (batch.events.empty() || batch.events.back().id != batch.last_id)
      findings.Violation(kPartitionOrder, where + "does not end at its last id");
  }
}

void CheckWatermarks(const PartitionRun& run, Findings& findings) {
  const std::string where = "partition " + std::to_string(run.partition) + ": ";
  if (run.after.watermark != run.after.horizon)
    findings.Violation(kWatermarks, where + "the watermark ended at " + std::to_string(run.after.watermark) +
                                        ", the horizon is " + std::to_string(run.after.horizon));
  if (!run.log.empty() && run.after.horizon != run.log.back().id)
    findings.Violation(kWatermarks, where + "the horizon " + std::to_string(run.after.horizon) +
                                        " is not the run's last event " + std::to_string(run.log.back().id) +
                                        ": something else committed during the run");
}

void CheckAckCounters(const PartitionRun& run, long links, Findings& findings) {
  const std::string where = "partition " + std::to_string(run.partition) + ": ";
  if (!run.before.acks_counted || !run.after.acks_counted) {
    findings.Violation(kAckCounters, where + "no pg_act_acks_total (pg_act not preloaded? --without-ack-counters)");
    return;
  }
  const long long counted = *run.after.acks_counted - *run.before.acks_counted;
  if (counted != links)
    findings.Violation(kAckCounters, where + "counted " + std::to_string(counted) + " acks for " +
                                         std::to_string(links) + " watermark moves");
}

// ---- the run ---------------------------------------------------------------

struct Options {
  std::string conninfo;
  std::chrono::seconds churn{20};
  bool ack_counters = true;
};

template <class Tally>
long Total(Shared<Tally>& tallies, long Tally::*field) {
  long total = 0;
  for (Tally& tally : tallies) total += Get(tally.*field);
  return total;
}

int Run(const Options& options) {
  const auto started = Clock::now();
  const auto churn_end = started + options.churn;
  const auto deadline = churn_end + kDrainOut + kGrace;
  pq::Connection router = ConnectRouter(options.conninfo);
  Setup setup{options.conninfo, MakeNames(), 0, {}};
  setup.partitions = static_cast<int>(pq::Scalar(router.get(), "SELECT act.router_partitions()"));
  CreateRecords(router.get());
  setup.streams = PickStreams(router.get(), setup.names, setup.partitions);
  const std::string subscription = R"([{"stream": ")" + setup.names.target + R"(", "source": ")" + setup.names.source +
                                   R"(", "lane": ")" + setup.names.lane + R"("}])";
  const long long rows =
      Number(pq::Run(router.get(), "SELECT subscribed FROM act.subscribe($1::jsonb)", {subscription}).get(), 0, 0);
  if (rows != setup.partitions)
    throw std::runtime_error("act.subscribe through the router made " + std::to_string(rows) +
                             " rows, not one per partition");
  const std::vector<PartitionState> before = ReadPartitions(router.get(), setup);

  Shared<long> stop(2);  // [0] committers, [1] drainers
  Shared<CommitterTally> committer_tallies(kCommitters);
  Shared<DrainerTally> survivor_tallies(kSurvivors);
  const std::size_t max_rounds = static_cast<std::size_t>(options.churn / kRoundSpacing) + 1;
  Shared<DrainerTally> victim_tallies(2 * max_rounds);
  Processes committers, survivors;
  for (std::size_t i = 0; i < kCommitters; ++i)
    committers.Spawn([&, i] { return RunCommitter(setup, committer_tallies[i], stop[0]); });
  for (std::size_t i = 0; i < kSurvivors; ++i) {
    const DrainerPlan plan{"survivor-" + std::to_string(i), static_cast<int>(i), false};
    survivors.Spawn([&, i, plan] { return RunDrainer(setup, plan, survivor_tallies[i], stop[1]); });
  }

  // Each round: a victim that waits inside its first batch, killed there (its
  // lease must expire and its events go to a survivor), and one killed at a
  // random moment of its cycle (sometimes between its ack and its outcome).
  std::mt19937 random(static_cast<unsigned>(getpid()));
  std::uniform_int_distribution<int> roaming_ms(50, 500);
  long kills = 0, in_batch_kills = 0;
  for (std::size_t round = 0; round < max_rounds && Clock::now() + kRoundSpacing <= churn_end; ++round) {
    const auto round_start = Clock::now();
    DrainerTally& holder_tally = victim_tallies[2 * round];
    DrainerTally& roamer_tally = victim_tallies[2 * round + 1];
    const int first = static_cast<int>(round) % setup.partitions;
    const DrainerPlan holder_plan{"victim-" + std::to_string(round) + "-holding", first, true};
    const DrainerPlan roamer_plan{"victim-" + std::to_string(round) + "-roaming", first + 1, false};
    Processes victims;
    const pid_t holder = victims.Spawn([&] { return RunDrainer(setup, holder_plan, holder_tally, stop[1]); });
    const pid_t roamer = victims.Spawn([&] { return RunDrainer(setup, roamer_plan, roamer_tally, stop[1]); });
    while (Get(holder_tally.in_batch) == 0 && Clock::now() < round_start + kVictimFindsBatch)
      std::this_thread::sleep_for(2ms);
    in_batch_kills += Get(holder_tally.in_batch);
    victims.Kill(holder);
    std::this_thread::sleep_until(round_start + std::chrono::milliseconds(roaming_ms(random)));
    in_batch_kills += Get(roamer_tally.in_batch);
    victims.Kill(roamer);
    kills += 2;
    std::this_thread::sleep_until(round_start + kRoundSpacing);
  }
  std::this_thread::sleep_until(churn_end);
  Set(stop[0], 1);
  const int committers_failed = committers.Wait(deadline);
  const auto drain_end = Clock::now() + kDrainOut;
  bool drained = Drained(router.get(), setup);
  for (; !drained && Clock::now() < drain_end; drained = Drained(router.get(), setup))
    std::this_thread::sleep_for(100ms);
  Set(stop[1], 1);
  const int survivors_failed = survivors.Wait(deadline);
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();

  // What the partitions and the records say.
  const std::vector<PartitionState> after = ReadPartitions(router.get(), setup);
  const std::vector<Batch> batches = LoadBatches(router.get());
  pq::Result committed_rows =
      pq::Run(router.get(), "SELECT id, stream, version FROM router_stress.committed ORDER BY id");
  std::map<std::string, int> partition_of;
  for (const Stream& stream : setup.streams) partition_of[stream.name] = stream.partition;
  std::vector<std::vector<Event>> committed(static_cast<std::size_t>(setup.partitions));
  for (Event& event : Events(committed_rows.get(), 0))
    committed[static_cast<std::size_t>(partition_of.at(event.stream))].push_back(std::move(event));

  Findings findings;
  ChainFigures figures;
  long events = 0;
  for (int partition = 0; partition < setup.partitions; ++partition) {
    const auto index = static_cast<std::size_t>(partition);
    PartitionRun run{partition, before[index], after[index], LoadLog(router.get(), setup, partition), {}};
    for (const Batch& batch : batches)
      if (batch.partition == partition) run.batches.push_back(&batch);
    events += static_cast<long>(run.log.size());
    if (run.log.empty()) findings.Violation(kChurn, "partition " + std::to_string(partition) + " got no event");
    CheckCommits(run, committed[index], findings);
    const long links_before = figures.links;
    const std::vector<const Batch*> chain = LandedChain(run, findings, figures);
    CheckHandled(run, chain, findings);
    CheckWatermarks(run, findings);
    if (options.ack_counters) CheckAckCounters(run, figures.links - links_before, findings);
  }
  CheckBatches(batches, findings);
  if (committers_failed + survivors_failed > 0)
    findings.Violation(kChurn, std::to_string(committers_failed) + " committers and " +
                                   std::to_string(survivors_failed) + " surviving drainers failed (see stderr)");
  if (!drained) findings.Violation(kChurn, "the survivors did not finish the work within the drain-out");
  if (in_batch_kills == 0) findings.Violation(kChurn, "no drainer was killed inside a batch");
  if (figures.rehandled_events == 0) findings.Violation(kChurn, "no killed drainer's batch was handled again");
  if (!options.ack_counters)
    std::printf("skip %s: --without-ack-counters\n", std::string(kPropertyNames[kAckCounters]).c_str());
  const int violated = findings.Print();

  const long unknown = std::count_if(batches.begin(), batches.end(), [](const Batch& batch) { return !batch.landed; });
  const long refused =
      std::count_if(batches.begin(), batches.end(), [](const Batch& batch) { return batch.landed == false; });
  const long empty_claims =
      Total(survivor_tallies, &DrainerTally::empty_claims) + Total(victim_tallies, &DrainerTally::empty_claims);
  std::printf(
      "router_stress: {\"partitions\": %d, \"streams\": %zu, \"events\": %ld, \"commits\": %ld, \"retries\": %ld, "
      "\"batches\": %zu, \"landed\": %ld, \"refused_acks\": %ld, \"unknown_outcomes\": %ld, \"unknown_landed\": %ld, "
      "\"rehandled_events\": %ld, \"empty_claims\": %ld, \"kills\": %ld, \"in_batch_kills\": %ld, \"seconds\": %.1f, "
      "\"violated\": %d}\n",
      setup.partitions, setup.streams.size(), events, Total(committer_tallies, &CommitterTally::commits),
      Total(committer_tallies, &CommitterTally::conflicts), batches.size(), figures.links, refused, unknown,
      figures.unknown_landed, figures.rehandled_events, empty_claims, kills, in_batch_kills, seconds, violated);
  return violated == 0 ? 0 : 1;
}

Options ParseOptions(int argc, char** argv) {
  Options options;
  if (const char* conninfo = std::getenv("ACT_ROUTER")) options.conninfo = conninfo;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--churn-seconds" && i + 1 < argc)
      options.churn = std::chrono::seconds(std::stoi(argv[++i]));
    else if (argument == "--without-ack-counters")
      options.ack_counters = false;
    else if (!argument.starts_with("--"))
      options.conninfo = argument;
    else
      throw std::invalid_argument(
          "usage: partition_router_stress [ROUTER_CONNINFO] [--churn-seconds N] "
          "[--without-ack-counters]");
  }
  if (options.churn < std::chrono::seconds(2) || options.churn > std::chrono::seconds(30))
    throw std::invalid_argument("--churn-seconds: from 2 to 30, so that the run stays within a minute");
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(ParseOptions(argc, argv));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "partition_router_stress: %s\n", error.what());
    return 2;
  }
}
