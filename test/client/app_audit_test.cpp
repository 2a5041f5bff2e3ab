// App::audit and act::StoreAudit: each finding provoked on purpose, and an
// app whose store is healthy with none.
#include <gtest/gtest.h>

#include <algorithm>
#include <pqxx/connection>
#include <pqxx/transaction>

#include "support/counter_app.hpp"
#include "support/database.hpp"

namespace act::test {
namespace {

using namespace std::chrono_literals;

struct Pinged {
  int at = 0;
};
struct Ping {
  int at = 0;
};
struct Pinger {
  int pings = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Pinged, at)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Ping, at)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Pinger, pings)

// A state whose event the tests never commit.
State<Pinger> pinger_state() {
  return state<Pinger>("Pinger")
      .patch<Pinged>("Pinged", [](const Pinged&, Pinger s) { ++s.pings; return s; })
      .on<Ping>("ping")
      .emit([](const Ping& a, const Pinger&) { return Pinged{a.at}; })
      .build();
}

// The findings of one kind about one subject.
std::vector<AuditFinding> about(const std::vector<AuditFinding>& findings, std::string_view kind,
                                std::string_view subject) {
  std::vector<AuditFinding> matching;
  std::copy_if(findings.begin(), findings.end(), std::back_inserter(matching),
               [&](const AuditFinding& f) { return f.kind == kind && f.subject == subject; });
  return matching;
}

std::string kinds(const std::vector<AuditFinding>& findings) {
  std::string listed;
  for (const AuditFinding& f : findings) listed += f.kind + "(" + f.subject + ": " + f.message + ") ";
  return listed;
}

class AppAuditTest : public DatabaseTest {
 protected:
  std::vector<AuditFinding> store_audit(AuditOptions options = {}) { return StoreAudit(pool_, std::move(options)).run(); }

  // A target in a lane of its own whose source holds an event: work waits.
  std::string waiting_target(const std::string& lane) {
    const std::string source = stream("source");
    store_->commit(source, {{"Paid", {}, {}}});
    const std::string target = stream("target");
    store_->subscribe({SubscriptionSpec{target, source, std::nullopt, 0, lane, std::nullopt}});
    return target;
  }
};

TEST_F(AppAuditTest, AHealthyAppHasNoFindings) {
  TestDatabase fresh("app_audit_healthy");
  std::vector<std::string> handled;
  App app = act::app(fresh.pool())
                .with(counter_state({.snap_every = 2}))
                .with(pinger_state())
                .on<Incremented>("Incremented")
                .to("audit-healthy-totals")
                .handle("count", [&](const Incremented&, ReactionContext&) { handled.push_back("x"); })
                .build();
  app.do_action("increment", {"c-1", kAnn}, Increment{1});
  app.do_action("increment", {"c-1", kAnn}, Increment{2});
  app.do_action("decrement", {"c-1", kAnn}, Decrement{1});
  app.do_action("ping", {"p-1", kAnn}, Ping{1});
  app.settle();
  ASSERT_EQ(handled.size(), 2u);
  const std::vector<AuditFinding> findings = app.audit();
  EXPECT_TRUE(findings.empty()) << kinds(findings);
}

TEST_F(AppAuditTest, ABlockedRowIsAnErrorWithItsUnblock) {
  const std::string lane = stream("lane");
  const std::string target = waiting_target(lane);
  const auto leases = store_->claim(1, 0, "worker", 60s, lane);
  ASSERT_EQ(leases.size(), 1u);
  store_->block({{leases[0], "boom"}});
  const auto found = about(store_audit(), "blocked", target);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_NE(found[0].message.find("boom"), std::string::npos) << found[0].message;
  EXPECT_EQ(found[0].fix, "actctl unblock --stream '" + target + "' --yes");
  EXPECT_TRUE(has_errors(store_audit()));
}

TEST_F(AppAuditTest, ALeaseRunningFarAheadIsLong) {
  const std::string lane = stream("lane");
  const std::string target = waiting_target(lane);
  ASSERT_EQ(store_->claim(1, 0, "slow-worker", 1h, lane).size(), 1u);
  const auto found = about(store_audit(), "long_lease", target);
  ASSERT_EQ(found.size(), 1u) << kinds(store_audit());
  EXPECT_EQ(found[0].severity, Severity::kWarning);
  EXPECT_NE(found[0].message.find("slow-worker"), std::string::npos) << found[0].message;
  EXPECT_EQ(found[0].fix, "actctl release --stream '" + target + "' --yes");
  EXPECT_TRUE(about(store_audit({.long_lease = 2h}), "long_lease", target).empty());
}

TEST_F(AppAuditTest, AWorkMarkWithNoEventLeftIsStale) {
  const std::string target = stream("target");
  const std::int64_t head = store_->max_event_id();
  store_->subscribe(
      {SubscriptionSpec{target, stream("nowhere"), std::nullopt, 0, stream("lane"), head + 1000}});
  const auto found = about(store_audit(), "stale_work_mark", target);
  ASSERT_EQ(found.size(), 1u) << kinds(store_audit());
  EXPECT_NE(found[0].fix.find("actctl defer --stream '" + target + "'"), std::string::npos) << found[0].fix;
}

TEST_F(AppAuditTest, ALaneWithOldWorkAndNoLeaseIsIdle) {
  const std::string lane = stream("lane");
  waiting_target(lane);
  EXPECT_TRUE(about(store_audit(), "idle_lane", lane).empty()) << "its work is younger than a minute";
  const auto found = about(store_audit({.idle_lane = 0s}), "idle_lane", lane);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kWarning);
  ASSERT_EQ(store_->claim(1, 0, "worker", 60s, lane).size(), 1u);
  EXPECT_TRUE(about(store_audit({.idle_lane = 0s}), "idle_lane", lane).empty()) << "a worker holds a lease there";
}

TEST_F(AppAuditTest, AHeldHorizonIsAnError) {
  pqxx::connection writer_connection(database().conninfo());
  pqxx::work writer(writer_connection);
  writer.exec("SELECT act.commit(" + writer.quote(stream()) + ", '[{\"name\": \"E\"}]')");
  const auto found = about(store_audit({.held_horizon = 0s}), "horizon_held", "");
  writer.abort();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_NE(found[0].fix.find("act.horizon_holders()"), std::string::npos);
  EXPECT_TRUE(about(store_audit({.held_horizon = 0s}), "horizon_held", "").empty()) << "the writer is gone";
}

TEST_F(AppAuditTest, StoppedSealingIsAnError) {
  TestDatabase corrupted("app_audit_sealing");
  Store store(corrupted.pool());
  store.commit("f", {{"E", {}, {}}});
  EXPECT_TRUE(about(StoreAudit(corrupted.pool()).run(), "sealing_stopped", "").empty());
  // The damage lands in the commit's own transaction: the background sealer
  // (concurrent mode) could otherwise seal the events before it.
  corrupted.sql(R"(SELECT count(*) FROM act.commit('g', '[{"name": "E"}, {"name": "E"}]');)"
                "UPDATE act.events SET hash = '\\x00' WHERE stream = 'g' AND version = 1");
  corrupted.sql("SELECT act.seal()");
  const auto found = about(StoreAudit(corrupted.pool()).run(), "sealing_stopped", "");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::kError);
  EXPECT_NE(found[0].message.find("not 32"), std::string::npos) << found[0].message;
}

TEST_F(AppAuditTest, AClockAnHourAheadIsSkewed) {
  EXPECT_TRUE(about(store_audit(), "clock_skew", "").empty());
  const auto found = about(store_audit({.clock = [] { return timestamp_now() + 1h; }}), "clock_skew", "");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].message.find("behind"), std::string::npos) << found[0].message;
}

TEST_F(AppAuditTest, RowsOfTheAppsLaneWithoutAHandlerHere) {
  const std::string lane = stream("lane");
  const std::string served = stream("served");
  App app = act::app(pool_)
                .with(counter_state())
                .lane(Lane{lane})
                .on<Incremented>("Incremented")
                .to(Route{served, std::nullopt, 0, lane})
                .handle("count", [](const Incremented&, ReactionContext&) {})
                .build();
  const std::string waiting = waiting_target(lane);
  const std::string left = stream("left");
  store_->subscribe({SubscriptionSpec{left, stream("nowhere"), std::nullopt, 0, lane, std::nullopt}});
  app.do_action("increment", {stream("c"), kAnn}, Increment{1});
  const std::vector<AuditFinding> findings = app.audit();
  const auto unhandled = about(findings, "unhandled_target", waiting);
  ASSERT_EQ(unhandled.size(), 1u) << kinds(findings);
  EXPECT_EQ(unhandled[0].severity, Severity::kWarning);
  const auto orphaned = about(findings, "orphaned_subscription", left);
  ASSERT_EQ(orphaned.size(), 1u) << kinds(findings);
  EXPECT_EQ(orphaned[0].severity, Severity::kInfo);
  EXPECT_TRUE(about(findings, "unhandled_target", served).empty());
  EXPECT_TRUE(about(findings, "orphaned_subscription", served).empty());
}

TEST_F(AppAuditTest, AStreamItsPolicyWouldCloseIsDue) {
  App app = act::app(pool_).with(counter_state({.autoclose = AutoclosePolicy{.any = {.reaches = 2}}})).build();
  const std::string open = stream("c"), young = stream("c");
  app.do_action("increment", {open, kAnn}, Increment{1});
  app.do_action("increment", {open, kAnn}, Increment{1});
  app.do_action("increment", {young, kAnn}, Increment{1});
  const std::vector<AuditFinding> findings = app.audit();
  const auto due = about(findings, "autoclose_due", open);
  ASSERT_EQ(due.size(), 1u) << kinds(findings);
  EXPECT_NE(due[0].fix.find("app.close"), std::string::npos);
  EXPECT_TRUE(about(findings, "autoclose_due", young).empty()) << "one event: the policy does not hold";
}

TEST_F(AppAuditTest, ASnapshotThatDiffersFromAReplayDrifted) {
  App app = act::app(pool_).with(counter_state({.snap_every = 2})).build();
  const std::string kept = stream("c"), forged = stream("c");
  for (const std::string& counter : {kept, forged}) {
    app.do_action("increment", {counter, kAnn}, Increment{1});
    app.do_action("increment", {counter, kAnn}, Increment{2});
  }
  store_->commit(forged, {{std::string(kSnapshotEvent), {{"count", 99}, {"changes", 2}}, {}}});
  const std::vector<AuditFinding> findings = app.audit();
  const auto drift = about(findings, "snapshot_drift", forged);
  ASSERT_EQ(drift.size(), 1u) << kinds(findings);
  EXPECT_EQ(drift[0].severity, Severity::kError);
  EXPECT_TRUE(about(findings, "snapshot_drift", kept).empty()) << "its snapshot is its replay";
}

TEST_F(AppAuditTest, EventNamesTheStatesAndTheLogDisagreeOn) {
  App app = act::app(pool_).with(counter_state()).with(pinger_state()).build();
  store_->commit(stream("other-app"), {{"Mystery", {}, {}}});
  app.do_action("increment", {stream("c"), kAnn}, Increment{1});
  const std::vector<AuditFinding> findings = app.audit();
  ASSERT_EQ(about(findings, "unknown_event_name", "Mystery").size(), 1u) << kinds(findings);
  EXPECT_TRUE(about(findings, "unknown_event_name", "Incremented").empty());
  const auto unused = about(findings, "unused_event_name", "Pinged");
  ASSERT_EQ(unused.size(), 1u) << kinds(findings);
  EXPECT_EQ(unused[0].severity, Severity::kInfo);
  EXPECT_TRUE(about(findings, "unused_event_name", "Incremented").empty());
}

}  // namespace
}  // namespace act::test
