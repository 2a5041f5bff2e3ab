#pragma once
// One drain cycle of a lane (docs/reactions.md): claim (act.claim_events:
// the leased targets' pending events come with the claim), run them through
// their handlers, block the streams whose budget is spent, acknowledge the
// rest, or leave the acknowledgements for the next cycle's claim to carry.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <optional>
#include <vector>

#include "act/drain.hpp"
#include "act/reaction.hpp"
#include "act/store.hpp"
#include "react/app_port.hpp"
#include "react/foreign_targets.hpp"
#include "react/parked_claim.hpp"
#include "react/registry.hpp"
#include "react/row_coverage.hpp"

namespace act::react {

struct CycleDeps {
  AppPort& app;
  const Registry& registry;
  RowCoverage& coverage;    // which dynamic targets' rows the claim's events can be trusted for
  ForeignTargets& foreign;  // other apps' targets met in this app's lanes
  const std::atomic<bool>& stopping;
};

struct CycleReport {
  DrainResult result;
  std::int64_t handled_lagging = 0;  // for the lagging / leading split of the next claim
  std::int64_t handled_leading = 0;
  std::optional<Timestamp> next_due;  // the earliest defer or backoff this cycle set
  std::map<std::string, std::int64_t, std::less<>> handled_by_target;
};

// Acknowledgements a cycle left for the next claim to carry: a lane in a
// steady drain then costs one call per cycle. Whoever holds them sends them
// before waiting, on stop, or at the latest with the next claim.
struct PendingAcks {
  std::vector<Acknowledgement> acks;
  std::chrono::steady_clock::time_point claimed_at{};  // when their leases began
};

enum class AckMode {
  kSend,   // acknowledge at the end of the cycle (a caller that looks at the rows next)
  kCarry,  // leave them in PendingAcks, unless half the lease is gone already
};

// Carries `pending` on its claim; leaves its own acknowledgements there in
// kCarry mode. With `parked` and nothing pending, claims through it: the
// server waits for a commit when it finds nothing.
CycleReport run_cycle(CycleDeps& deps, const Lane& lane, std::int32_t lagging, std::int32_t leading,
                      PendingAcks& pending, AckMode mode, const ParkedWait* parked = nullptr);

// Sends what is pending with act.ack; the result counts the lost leases.
DrainResult flush_acks(CycleDeps& deps, const Lane& lane, PendingAcks& pending);

}  // namespace act::react
