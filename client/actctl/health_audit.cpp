// actctl audit: the store's health (act::StoreAudit), one line per finding
// or one JSON object; exit 1 when a finding is an error. The checks that
// need an app's declarations are listed as skipped: App::audit runs them.
// Not `actctl log audit`, which checks the Merkle log's proofs.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "act/audit.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "printable.hpp"

namespace actctl {

namespace {

struct AuditArgs {
  bool json = false;
  std::int32_t max_rows = act::AuditOptions{}.max_rows;
};

int Audit(const Database& db, const AuditArgs& args) {
  if (args.max_rows < 1) throw UsageError(fmt::format("--max-rows must be 1 or more, not {}", args.max_rows));
  act::AuditOptions options;
  options.max_rows = args.max_rows;
  const std::vector<act::AuditFinding> findings = act::StoreAudit(OpenPool(db), options).run();
  if (args.json) {
    nlohmann::json object = {{"findings", nlohmann::json::array()}, {"skipped", nlohmann::json::array()}};
    for (const act::AuditFinding& finding : findings) object["findings"].push_back(act::to_json(finding));
    for (const std::string_view check : act::kAppChecks) object["skipped"].push_back(check);
    fmt::print("{}\n", object.dump(2));
  } else {
    for (const act::AuditFinding& finding : findings) {
      fmt::print("{} {} {}: {} (fix: {})\n", act::severity_name(finding.severity), finding.kind,
                 finding.subject.empty() ? "-" : Printable(finding.subject), Printable(finding.message),
                 Printable(finding.fix));
    }
    fmt::print("skipped, need an app (App::audit): {}\n", fmt::join(act::kAppChecks, ", "));
  }
  return act::has_errors(findings) ? kFailed : kOk;
}

}  // namespace

void AddAudit(CLI::App& app, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<AuditArgs>();
  CLI::App* audit = app.add_subcommand(
      "audit", "The store's health: blocked and long-leased subscriptions, stale work marks, idle lanes, a held "
               "horizon, stopped sealing, clock skew; each finding with its fix. Exit 1 when a finding is an error "
               "or on a database error (the log's proofs: actctl log audit)");
  audit->add_flag("--json", args->json, "print one JSON object: findings and the checks skipped");
  audit->add_option("--max-rows", args->max_rows, "subscription rows read from act.lag (default 1000)")->type_name("N");
  audit->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Audit(db, *args); }; });
}

}  // namespace actctl
