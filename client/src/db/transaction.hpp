#pragma once
// An explicit transaction on one session that rolls back unless committed.
#include "db/session.hpp"

namespace act::db {

class Transaction {
 public:
  explicit Transaction(Session& session) : session_(session) { session_.begin(); }
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
