#pragma once
// Correlate: reads the log past the durable checkpoint, resolves each event
// through the dynamic reactions and subscribes the targets it finds, with
// work marks. A lease per registry lets one of many interchangeable workers
// scan at a time; the others find the targets subscribed.
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "act/drain.hpp"
#include "act/store.hpp"
#include "react/registry.hpp"
#include "react/row_coverage.hpp"

namespace act::react {

class Correlator {
 public:
  static constexpr std::chrono::milliseconds kLease{5'000};

  // A subscribe this often at least while events come, even when it would
  // change no row: it renews the lease and stores the checkpoint.
  static constexpr std::chrono::milliseconds kStoreEvery{1'000};

  Correlator(Store& store, const Registry& registry, const RowCoverage& coverage, std::string worker_id);

  // One scan of up to `limit` events; not scanned when another worker holds the lease.
  CorrelateResult scan(std::int32_t limit);
  // Hands the lease back so another worker can take over at once.
  void release() noexcept;

 private:
  bool hold_lease();
  // Adds the targets the event is routed to (upcast first); throws what a
  // resolver or upcaster throws.
  void route_event(const Committed& stored, std::map<std::string, SubscriptionSpec>& targets) const;
  // Subscribes the targets a scan found, with the checkpoint it reached.
  void store_targets(std::map<std::string, SubscriptionSpec>& targets, std::int64_t last_id, CorrelateResult& result);
  // True when subscribing these targets would change no row: each was
  // subscribed by this correlator with the same priority and lane, and
  // every mark it carries, act.commit has set already (the row selects every
  // dynamic name, and its source is every stream or the event's own).
  bool changes_nothing(const std::map<std::string, SubscriptionSpec>& targets) const;
  void remember(const std::vector<SubscriptionSpec>& subscribed);

  struct Subscribed {
    std::int32_t priority = 0;
    std::string lane;
  };
  static constexpr std::size_t kRemembered = 100'000;

  Store& store_;
  const Registry& registry_;
  const RowCoverage& coverage_;
  const std::string by_;
  std::mutex mutex_;
  std::int64_t checkpoint_ = -1;
  std::chrono::steady_clock::time_point lease_until_{};
  std::chrono::steady_clock::time_point subscribed_at_{};  // the last subscribe that carried targets
  std::unordered_map<std::string, Subscribed> subscribed_;  // by this correlator, in this process
};

}  // namespace act::react
