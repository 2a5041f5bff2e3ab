#include "react/parked_claim.hpp"

#include "db/statement.hpp"
#include "store/reaction_calls.hpp"

namespace act::react {
namespace {

constexpr db::Statement kWakesOnCommit{"act_wakes_on_commit", "act.mode", "SELECT act.mode() = 'concurrent'"};

}  // namespace

db::Session& ParkedClaim::session(const std::string& conninfo) {
  if (session_ && !session_->usable()) session_.reset();
  if (!session_) session_ = std::make_unique<db::Session>(conninfo, statements_);
  return *session_;
}

bool ParkedClaim::wakes_on_commit(const std::string& conninfo) {
  const std::lock_guard lock(mutex_);
  bool concurrent = false;
  session(conninfo).run(kWakesOnCommit, db::Params(), [&](const db::Row& row) { concurrent = row.boolean(0); });
  return concurrent;
}

std::vector<ClaimedLease> ParkedClaim::claim(const std::string& conninfo, const ClaimRequest& request) {
  db::Session* waiting = nullptr;
  {
    const std::lock_guard lock(mutex_);
    if (interrupted_) {
      interrupted_ = false;
      return {};
    }
    waiting = &session(conninfo);
    waiting_ = true;
  }
  try {
    std::vector<ClaimedLease> claimed = reaction_calls::claim_events_parked(*waiting, request);
    const std::lock_guard lock(mutex_);
    waiting_ = false;
    interrupted_ = false;  // a cancel that came too late found the session idle
    return claimed;
  } catch (...) {
    const std::lock_guard lock(mutex_);
    waiting_ = false;
    const bool cancelled = interrupted_;
    interrupted_ = false;
    if (cancelled) return {};  // the cancel rolled the claim back: nothing was leased
    throw;
  }
}

void ParkedClaim::interrupt() {
  const std::lock_guard lock(mutex_);
  interrupted_ = true;
  if (waiting_) session_->cancel();
}

void ParkedClaim::cancel_waiting() {
  const std::lock_guard lock(mutex_);
  if (!waiting_) return;
  interrupted_ = true;  // its failure is the cancel's, not one to report
  session_->cancel();
}

void ParkedClaim::close() {
  const std::lock_guard lock(mutex_);
  session_.reset();
}

}  // namespace act::react
