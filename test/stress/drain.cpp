#include "drain.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "pq_session.hpp"
#include "shared.hpp"

namespace stress {

namespace {

struct Subscription {
  std::string stream;
  std::optional<std::string> source;  // NULL: every stream; starting with ^: a pattern
  std::optional<std::string> name;    // the one event name it takes, if any
};

std::vector<Subscription> Subscriptions(int committers) {
  const std::string prefix = kChurnPrefix;
  std::vector<Subscription> subscriptions = {
      {"all", std::nullopt, std::nullopt},
      {"evens", "^" + prefix + "-[0-9]+-[02]$", std::nullopt},
      {"odd-named", "^" + prefix + "-", "Odd"},
  };
  for (int p = 0; p < committers; ++p)
    subscriptions.push_back({"copy-" + std::to_string(p), prefix + "-" + std::to_string(p) + "-1", std::nullopt});
  return subscriptions;
}

// The act.subscribe argument; CheckDrained reads the same array as its oracle.
std::string SubscriptionsJson(int committers) {
  std::string json = "[";
  for (const Subscription& s : Subscriptions(committers)) {
    json += std::string(json.size() > 1 ? ", " : "") + R"({"stream": ")" + s.stream + "\"";
    if (s.source) json += R"(, "source": ")" + *s.source + "\"";
    if (s.name) json += R"(, "names": [")" + *s.name + "\"]";
    json += "}";
  }
  return json + "]";
}

std::string AckEntry(const std::string& stream, const std::string& by, long long at) {
  return R"({"stream": ")" + stream + R"(", "by": ")" + by + R"(", "at": )" + std::to_string(at) + "}";
}

// Records a handed batch (a jsonb array of events with "id") for one
// subscription, inside the caller's transaction: the events above the
// subscription's watermark, which then moves past them. Returns how many.
long Record(PGconn* connection, const DrainPlan& plan, const std::string& subscription, const std::string& events) {
  pq::Result recorded = pq::Run(
      connection,
      "WITH mark AS (SELECT at FROM stress_watermarks WHERE subscription = $1 FOR UPDATE), "
      "added AS (INSERT INTO stress_handled (subscription, event_id, worker) "
      "  SELECT $1, (e ->> 'id')::bigint, $2 FROM jsonb_array_elements($3::jsonb) e, mark "
      "  WHERE (e ->> 'id')::bigint > mark.at RETURNING event_id), "
      "moved AS (UPDATE stress_watermarks w SET at = greatest(w.at, (SELECT max(event_id) FROM added)) "
      "  WHERE w.subscription = $1 AND EXISTS (SELECT FROM added)) "
      "SELECT count(*) FROM added",
      {subscription, plan.by, events});
  return std::atol(PQgetvalue(recorded.get(), 0, 0));
}

// The id an ack moves the watermark to: the last event handed, or `at` when none.
long long LastId(const std::string& events, const std::string& at) {
  const nlohmann::json handed = nlohmann::json::parse(events);
  return handed.empty() ? std::atoll(at.c_str()) : handed.back().at("id").get<long long>();
}

void PauseInBatch(const DrainPlan& plan, DrainTally& tally) {
  if (plan.pause_in_batch_ms <= 0) return;
  Set(tally.in_batch, 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(plan.pause_in_batch_ms));
  Set(tally.in_batch, 0);
}

// One lease of the three-call path: its next events are read, recorded and
// the lease acknowledged past them in one transaction, so a lease lost
// meanwhile takes both back.
void HandleLease(PGconn* connection, const DrainPlan& plan, DrainTally& tally, const Subscription& subscription,
                 const std::string& at) {
  pq::Run(connection, "BEGIN");
  pq::Result read = pq::Run(
      connection,
      "SELECT coalesce(jsonb_agg(jsonb_build_object('id', id) ORDER BY id), '[]')::text FROM act.query(stream => $1, "
      "after => $2::bigint, names => $3::text[], max_events => 50, stream_exact => $4::boolean)",
      {subscription.source, at,
       subscription.name ? std::optional<std::string>("{" + *subscription.name + "}") : std::nullopt,
       subscription.source && subscription.source->starts_with("^") ? "false" : "true"});
  const std::string events = PQgetvalue(read.get(), 0, 0);
  const long recorded = Record(connection, plan, subscription.stream, events);
  PauseInBatch(plan, tally);
  pq::Result acked = pq::Run(connection, "SELECT count(*) FROM act.ack($1::jsonb)",
                             {"[" + AckEntry(subscription.stream, plan.by, LastId(events, at)) + "]"});
  if (std::atol(PQgetvalue(acked.get(), 0, 0)) == 1) {
    pq::Run(connection, "COMMIT");
    Add(tally.batches, 1);
    Add(tally.handled, recorded);
  } else {
    pq::Run(connection, "ROLLBACK");
    Add(tally.lost_leases, 1);
  }
}

bool Finished(PGconn* connection, long& done) {
  return Get(done) && pq::Scalar(connection, "SELECT count(*) FROM act.subscriptions WHERE at < correlated_at") == 0;
}

int DrainByThreeCalls(PGconn* connection, const DrainPlan& plan, const std::vector<Subscription>& subscriptions,
                      DrainTally& tally, long& done, Clock::time_point deadline) {
  for (;;) {
    if (Clock::now() >= deadline) {
      std::fprintf(stderr, "# drainer %s: deadline reached with work left\n", plan.by.c_str());
      return 1;
    }
    pq::Result leases = pq::Run(connection, "SELECT stream, at FROM act.claim(4, 2, $1, $2::int)",
                                {plan.by, std::to_string(plan.lease_ms)});
    if (PQntuples(leases.get()) == 0) {
      if (Finished(connection, done)) return 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    for (int row = 0; row < PQntuples(leases.get()); ++row) {
      const std::string stream = PQgetvalue(leases.get(), row, 0);
      auto subscription = std::find_if(subscriptions.begin(), subscriptions.end(),
                                       [&](const Subscription& s) { return s.stream == stream; });
      if (subscription == subscriptions.end()) throw std::runtime_error("claimed an unknown subscription " + stream);
      HandleLease(connection, plan, tally, *subscription, PQgetvalue(leases.get(), row, 1));
    }
  }
}

// What the last act.claim_events call handed over, to record and ack in the next cycle.
struct Handed {
  std::string subscription;
  std::string at;
  std::string events;
};

// The recording's watermark would hide events handed twice: a batch must
// hold only events above the row's `at`, in id order.
void CheckHanded(const Handed& batch) {
  long long previous = std::atoll(batch.at.c_str());
  for (const nlohmann::json& event : nlohmann::json::parse(batch.events)) {
    const long long id = event.at("id").get<long long>();
    if (id <= previous)
      throw std::runtime_error("act.claim_events handed " + batch.subscription + " event " + std::to_string(id) +
                               " after " + std::to_string(previous) + " (at " + batch.at + ")");
    previous = id;
  }
}

// One call a cycle: the batch handed by the previous call is recorded, then
// its acks ride on the call that claims the next, all in one transaction.
int DrainByClaimEvents(PGconn* connection, const DrainPlan& plan, const std::vector<Subscription>& subscriptions,
                       DrainTally& tally, long& done, Clock::time_point deadline) {
  std::vector<Handed> handed;
  for (;;) {
    if (Clock::now() >= deadline) {
      std::fprintf(stderr, "# drainer %s: deadline reached with work left\n", plan.by.c_str());
      return 1;
    }
    pq::Run(connection, "BEGIN");
    std::string acks;
    long recorded = 0, lost = 0;
    for (const Handed& batch : handed) {
      const long added = Record(connection, plan, batch.subscription, batch.events);
      // A batch whose events another drainer recorded first: its lease was lost.
      if (added == 0 && batch.events != "[]") ++lost;
      recorded += added;
      acks += std::string(acks.empty() ? "[" : ", ") + AckEntry(batch.subscription, plan.by, LastId(batch.events, batch.at));
    }
    if (!handed.empty()) PauseInBatch(plan, tally);
    pq::Result leases = pq::Run(
        connection, "SELECT stream, at, events::text FROM act.claim_events(4, 2, $1, $2::int, NULL, 50, acks => $3::jsonb)",
        {plan.by, std::to_string(plan.lease_ms), acks.empty() ? std::nullopt : std::optional<std::string>(acks + "]")});
    pq::Run(connection, "COMMIT");
    Add(tally.batches, static_cast<long>(handed.size()) - lost);
    Add(tally.lost_leases, lost);
    Add(tally.handled, recorded);
    handed.clear();
    for (int row = 0; row < PQntuples(leases.get()); ++row) {
      const std::string stream = PQgetvalue(leases.get(), row, 0);
      if (std::none_of(subscriptions.begin(), subscriptions.end(), [&](const Subscription& s) { return s.stream == stream; }))
        throw std::runtime_error("claimed an unknown subscription " + stream);
      Handed batch{stream, PQgetvalue(leases.get(), row, 1), PQgetvalue(leases.get(), row, 2)};
      CheckHanded(batch);
      handed.push_back(std::move(batch));
    }
    if (handed.empty()) {
      if (Finished(connection, done)) return 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
}

}  // namespace

void SetUpDrain(PGconn* connection, int committers) {
  pq::Run(connection,
          "CREATE TABLE stress_handled (subscription text NOT NULL, event_id bigint NOT NULL, worker text)");
  pq::Run(connection, "CREATE TABLE stress_watermarks (subscription text PRIMARY KEY, at bigint NOT NULL)");
  pq::Run(connection,
          "INSERT INTO stress_watermarks SELECT s.stream, -1 FROM jsonb_to_recordset($1::jsonb) AS s(stream text)",
          {SubscriptionsJson(committers)});
  pq::Run(connection, "SELECT count(*) FROM act.subscribe($1::jsonb)", {SubscriptionsJson(committers)});
}

int Drain(const DrainPlan& plan, DrainTally& tally, long& done, Clock::time_point deadline) {
  const std::vector<Subscription> subscriptions = Subscriptions(plan.committers);
  pq::Connection connection = pq::Connect();
  return plan.path == DrainPath::kClaimEvents
             ? DrainByClaimEvents(connection.get(), plan, subscriptions, tally, done, deadline)
             : DrainByThreeCalls(connection.get(), plan, subscriptions, tally, done, deadline);
}

void CheckDrained(Report& report, PGconn* connection, int committers) {
  // The oracle: which events each subscription takes, by the contract's rules
  // (here every pattern starts with ^), computed from the log itself.
  pq::Result counts = pq::Run(
      connection,
      "WITH subs AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS s(stream text, source text, names text[])), "
      "expected AS (SELECT s.stream AS subscription, e.id AS event_id FROM subs s JOIN act.events e ON "
      "  (s.source IS NULL OR CASE WHEN s.source LIKE '^%' THEN e.stream ~ s.source ELSE e.stream = s.source END) "
      "  AND (s.names IS NULL OR e.name = ANY (s.names))), "
      "handled AS (SELECT subscription, event_id FROM stress_handled) "
      "SELECT (SELECT count(*) FROM expected), "
      "  (SELECT count(*) FROM (SELECT * FROM expected EXCEPT SELECT * FROM handled) missing), "
      "  (SELECT count(*) FROM (SELECT * FROM handled EXCEPT SELECT * FROM expected) extra), "
      "  (SELECT count(*) FROM handled) - (SELECT count(*) FROM (SELECT DISTINCT * FROM handled) once), "
      "  (SELECT count(*) FROM subs WHERE NOT EXISTS (SELECT FROM handled h WHERE h.subscription = subs.stream)), "
      "  (SELECT count(*) FROM handled)",
      {SubscriptionsJson(committers)});
  auto value = [&](int column) { return std::atol(PQgetvalue(counts.get(), 0, column)); };
  const long expected = value(0), missing = value(1), extra = value(2), twice = value(3), idle = value(4),
             handled = value(5);
  report.lost += missing;
  report.Expect(missing == 0, std::to_string(missing) + " (subscription, event) pairs never handled");
  report.Expect(extra == 0, std::to_string(extra) + " events handled by a subscription they do not match");
  report.Expect(twice == 0, std::to_string(twice) + " events handled more than once by one subscription");
  report.Expect(idle == 0, std::to_string(idle) + " subscriptions handled nothing");
  report.Expect(handled == expected,
                "drained " + std::to_string(handled) + " handlings, committed " + std::to_string(expected));
  const long work =
      pq::Scalar(connection, "SELECT count(*) FROM act.subscriptions WHERE at < correlated_at OR blocked");
  report.Expect(work == 0, std::to_string(work) + " subscriptions left with work or blocked");
  const long held = pq::Scalar(connection,
                               "SELECT count(*) FROM act.subscriptions WHERE leased_by IS NOT NULL AND "
                               "(leased_until > now() OR leased_by NOT LIKE 'victim-%')");
  report.Expect(held == 0, std::to_string(held) + " leases still held at the end");
  report.Note(handled, "handlings drained of " + std::to_string(expected) + " due");
}

}  // namespace stress
