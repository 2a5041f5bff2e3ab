#pragma once
// Correlate: reads the log past the durable checkpoint, resolves each event
// through the dynamic reactions and subscribes the targets it finds, with
// work marks. A lease per registry lets one of many interchangeable workers
// scan at a time; the others find the targets subscribed.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "act/drain.hpp"
#include "act/store.hpp"
#include "react/registry.hpp"

namespace act::react {

class Correlator {
 public:
  static constexpr std::chrono::milliseconds kLease{5'000};

  Correlator(Store& store, const Registry& registry, std::string worker_id);

  // One scan of up to `limit` events; not scanned when another worker holds the lease.
  CorrelateResult scan(std::int32_t limit);
  // Hands the lease back so another worker can take over at once.
  void release() noexcept;

 private:
  bool hold_lease();

  Store& store_;
  const Registry& registry_;
  const std::string by_;
  std::mutex mutex_;
  std::int64_t checkpoint_ = -1;
  std::chrono::steady_clock::time_point lease_until_{};
};

}  // namespace act::react
