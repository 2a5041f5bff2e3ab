#pragma once
// A health audit (docs/reactions.md, "Reading the audit"): what is wrong
// or drifting in a running store, each finding with the command that fixes
// it. StoreAudit runs the checks the database alone can answer (blocked and
// long-leased rows, stale work marks, idle lanes, the horizon, sealing,
// clock skew); App::audit adds those that need the app's declarations.
// Every check reads a bounded sample (AuditOptions), never the whole log.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "act/event.hpp"
#include "act/pool.hpp"

namespace act {

enum class Severity { kInfo, kWarning, kError };

// "info", "warning" or "error".
std::string_view severity_name(Severity severity) noexcept;

struct AuditFinding {
  std::string kind;     // a stable id: "blocked", "snapshot_drift", ...
  Severity severity = Severity::kInfo;
  std::string subject;  // the stream, subscription, lane or event name concerned ("" for the store)
  std::string message;
  std::string fix;      // an actctl line, a SQL call or the App call that fixes it
};

nlohmann::json to_json(const AuditFinding& finding);
bool has_errors(const std::vector<AuditFinding>& findings) noexcept;

struct AuditOptions {
  // Rows of act.lag read (the oldest work first), and subscription rows of
  // the app's lanes read for targets without a handler.
  std::int32_t max_rows = 1000;
  // The most recent __snapshot__ events compared with a replay of their stream.
  std::int32_t snapshots = 20;
  // The most recent events whose names are compared with the states' names,
  // and scanned for streams the close policies would close.
  std::int32_t recent_events = 10'000;
  std::chrono::seconds long_lease{600};      // a lease running further ahead than this
  std::chrono::seconds idle_lane{60};        // work this old in a lane where nothing is leased
  std::chrono::seconds held_horizon{30};     // the horizon held back this long
  std::chrono::milliseconds clock_skew{2000};  // beyond the round trip's uncertainty
  // The app's clock (the system clock when empty).
  std::function<Timestamp()> clock{};
};

// The checks App::audit adds to StoreAudit's; actctl audit names them as skipped.
inline constexpr std::string_view kAppChecks[] = {"unhandled_target", "orphaned_subscription", "autoclose_due",
                                                  "snapshot_drift",   "unknown_event_name",    "unused_event_name"};

class StoreAudit {
 public:
  explicit StoreAudit(std::shared_ptr<ConnectionPool> pool, AuditOptions options = {});

  std::vector<AuditFinding> run();

 private:
  std::shared_ptr<ConnectionPool> pool_;
  AuditOptions options_;
};

}  // namespace act
