// StoreAudit: the audit's checks the database alone answers, from
// act.status, act.lag (at most max_rows rows), act.metrics and the
// server's clock; four round trips whatever the store's size.
#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "act/audit.hpp"
#include "act/monitor.hpp"
#include "act/store.hpp"
#include "store/audit_text.hpp"

namespace act {

namespace {

using std::chrono::duration_cast;
using std::chrono::microseconds;

void rows_findings(const std::vector<LagRow>& rows, const StoreStatus& status, const AuditOptions& options,
                   Timestamp now, std::vector<AuditFinding>& findings) {
  for (const LagRow& row : rows) {
    const std::string stream = audit_text::shell_quoted(row.stream);
    if (row.blocked) {
      findings.push_back({"blocked", Severity::kError, row.stream,
                          "blocked at watermark " + std::to_string(row.at) + ", retry " + std::to_string(row.retry) + ": " +
                              row.error.value_or(""),
                          "actctl unblock --stream " + stream + " --yes"});
      continue;
    }
    if (row.leased_until && *row.leased_until > now + options.long_lease) {
      findings.push_back({"long_lease", Severity::kWarning, row.stream,
                          "leased by " + row.leased_by.value_or("?") + " for " +
                              audit_text::span(*row.leased_until - now) + " more (longer than " +
                              audit_text::span(options.long_lease) + ")",
                          "actctl release --stream " + stream + " --yes"});
    }
    // Work with nothing left to hand over: the mark names events the log
    // no longer has (truncated), or ones it never had.
    if (!row.waiting_id || (row.work_mark && *row.work_mark > status.max_event_id)) {
      findings.push_back({"stale_work_mark", Severity::kWarning, row.stream,
                          "work mark " + std::to_string(row.work_mark.value_or(-1)) + " above watermark " +
                              std::to_string(row.at) + " with no event left to handle (log head " +
                              std::to_string(status.max_event_id) + ")",
                          audit_text::park_command(row.stream) + " (a claim finds nothing to acknowledge it by)"});
    }
  }
}

// A lane whose oldest work has waited past idle_lane while none of its rows
// is leased: no worker of that lane has claimed anything lately.
void lane_findings(const std::vector<LagRow>& rows, const std::vector<MetricSample>& metrics,
                   const AuditOptions& options, std::vector<AuditFinding>& findings) {
  std::map<std::string, double> leased;
  for (const MetricSample& sample : metrics) {
    if (sample.metric == "pg_act_subscriptions_leased" && sample.labels.contains("lane"))
      leased[sample.labels["lane"].get<std::string>()] = sample.value.value_or(0);
  }
  std::map<std::string, microseconds> oldest;
  for (const LagRow& row : rows) {
    if (row.blocked || !row.age) continue;
    auto& age = oldest[row.lane];
    age = std::max(age, *row.age);
  }
  for (const auto& [lane, age] : oldest) {
    if (age < options.idle_lane || leased[lane] > 0) continue;
    findings.push_back({"idle_lane", Severity::kWarning, lane,
                        "work has waited " + audit_text::span(age) + " and nothing in the lane is leased: no worker "
                            "of lane \"" + lane + "\" has claimed lately",
                        "start an app whose workers claim lane \"" + lane + "\" (App::start); actctl lag --lane " +
                            audit_text::shell_quoted(lane)});
  }
}

void store_findings(const StoreStatus& status, const AuditOptions& options, std::vector<AuditFinding>& findings) {
  if (status.horizon_held_for && *status.horizon_held_for >= options.held_horizon) {
    findings.push_back({"horizon_held", Severity::kError, "",
                        "a transaction has held the horizon back for " + audit_text::span(*status.horizon_held_for) +
                            ": no worker sees events committed since",
                        "SELECT * FROM act.horizon_holders(); then end the holder: SELECT pg_terminate_backend(pid)"});
  }
  if (status.seal_stopped) {
    findings.push_back({"sealing_stopped", Severity::kError, "",
                        "the log's tree stopped sealing: " + *status.seal_stopped,
                        "SELECT * FROM act.verify_log(); actctl log audit"});
  }
}

// The server's clock against this process's, less what the round trip leaves unknown.
void clock_findings(Store& store, const AuditOptions& options, std::vector<AuditFinding>& findings) {
  std::function<Timestamp()> clock = options.clock;
  if (!clock) clock = timestamp_now;
  const Timestamp sent = clock();
  const Timestamp server = store.server_time("now");
  const Timestamp received = clock();
  const auto half_trip = duration_cast<microseconds>(received - sent) / 2;
  const auto skew = duration_cast<microseconds>(server - (sent + half_trip));
  const auto distance = skew < microseconds::zero() ? -skew : skew;
  if (distance <= options.clock_skew + half_trip) return;
  findings.push_back({"clock_skew", Severity::kWarning, "",
                      "the database's clock is " + audit_text::span(distance) + (skew > microseconds::zero() ? " ahead of" : " behind") +
                          " this host's: lease expiries, deferrals and age-based close policies are judged off by as much",
                      "synchronise both hosts' clocks (NTP: chronyc tracking)"});
}

}  // namespace

std::string_view severity_name(Severity severity) noexcept {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "info";
}

nlohmann::json to_json(const AuditFinding& finding) {
  return {{"kind", finding.kind},
          {"severity", severity_name(finding.severity)},
          {"subject", finding.subject},
          {"message", finding.message},
          {"fix", finding.fix}};
}

bool has_errors(const std::vector<AuditFinding>& findings) noexcept {
  return std::any_of(findings.begin(), findings.end(),
                     [](const AuditFinding& finding) { return finding.severity == Severity::kError; });
}

StoreAudit::StoreAudit(std::shared_ptr<ConnectionPool> pool, AuditOptions options)
    : pool_(std::move(pool)), options_(std::move(options)) {
  if (!pool_) throw std::invalid_argument("StoreAudit: no connection pool");
  if (options_.max_rows < 1) throw std::invalid_argument("StoreAudit: max_rows must be 1 or more");
}

std::vector<AuditFinding> StoreAudit::run() {
  Monitor monitor(pool_);
  Store store(pool_);
  const StoreStatus status = monitor.status();
  const std::vector<LagRow> rows = monitor.lag(std::nullopt, options_.max_rows);
  std::vector<AuditFinding> findings;
  rows_findings(rows, status, options_, store.server_time("now"), findings);
  lane_findings(rows, monitor.metrics(), options_, findings);
  store_findings(status, options_, findings);
  clock_findings(store, options_, findings);
  return findings;
}

}  // namespace act
