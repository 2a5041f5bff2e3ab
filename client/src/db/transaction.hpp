#pragma once
// An explicit transaction on one session that rolls back unless committed.
#include "db/session.hpp"

namespace act::db {

// kQueued: BEGIN travels with the first queued statements, COMMIT with the last (Session::begin_queued).
enum class Begin { kNow, kQueued };

class Transaction {
 public:
  explicit Transaction(Session& session, Begin begin = Begin::kNow) : session_(session) {
    if (begin == Begin::kQueued) {
      session_.begin_queued();
    } else {
      session_.begin();
    }
  }
  ~Transaction() {
    if (!finished_) session_.rollback();
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  void commit() {
    finished_ = true;
    session_.commit();
  }
  void rollback() noexcept {
    finished_ = true;
    session_.rollback();
  }
  Session& session() noexcept { return session_; }

 private:
  Session& session_;
  bool finished_ = false;
};

}  // namespace act::db
