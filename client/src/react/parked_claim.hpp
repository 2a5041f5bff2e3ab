#pragma once
// A parked lane's claim that waits in the server (act.claim_events'
// wait_millis) on a connection of its own, so a commit wakes the lane and
// hands it its events in one round trip, with no pooled connection held
// while it waits. Work that comes without a commit (a correlator's marks,
// a rebuild's reset) and stop interrupt it: a cancel, which rolls the call
// back, so it never carries acknowledgements.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "act/store.hpp"
#include "db/session.hpp"

namespace act::react {

class ParkedClaim {
 public:
  // Whether the server's wait is worth taking: in concurrent mode a commit
  // wakes it through shared memory; in fenced mode it polls every 10 ms,
  // slower than the notification the lane waits for otherwise. Connects on
  // first use; throws act::Error when the database is out of reach.
  bool wakes_on_commit(const std::string& conninfo);
  // Claims as run_cycle does, waiting up to request.wait for a commit; no
  // rows when interrupted (or interrupted since the last claim) or when the
  // wait is over. Throws the other failures.
  std::vector<ClaimedLease> claim(const std::string& conninfo, const ClaimRequest& request);
  // From any thread: ends the claim under way, or the next one, at once
  // (work came that no commit announces, or stop).
  void interrupt();
  // From any thread: ends the claim under way, if any (another caller wants the lane's cycle).
  void cancel_waiting();
  void close();

 private:
  db::Session& session(const std::string& conninfo);  // under mutex_

  std::mutex mutex_;
  std::unique_ptr<db::Session> session_;  // dropped when broken
  bool waiting_ = false;
  bool interrupted_ = false;
  std::atomic<std::uint64_t> statements_{0};
};

// What a parked lane's first cycle claims through.
struct ParkedWait {
  ParkedClaim& claim;
  const std::string& conninfo;
  std::chrono::milliseconds wait;
};

}  // namespace act::react
