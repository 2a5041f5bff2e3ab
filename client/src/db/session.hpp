#pragma once
// One database connection: prepares statements on first use, runs them one
// at a time (each call is one round trip and, outside begin()/commit(), its
// own transaction), and maps every failure through error_mapping.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>

#include "db/params.hpp"
#include "db/row.hpp"
#include "db/statement.hpp"

namespace act::db {

class Session {
 public:
  // Throws act::StoreError (operation "connect") when the server is out of reach.
  Session(const std::string& conninfo, std::atomic<std::uint64_t>& statement_counter);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs statement and hands each row to on_row while the result is alive.
  // subject is the stream the call is about, if any (see DatabaseFailure).
  void run(const Statement& statement, const Params& params, const std::function<void(const Row&)>& on_row,
           std::string_view subject = {});

  // An application's statement with $n parameters, not prepared (a projection's SQL).
  void exec(std::string_view sql, const Params& params, const std::function<void(const Row&)>& on_row);

  // An explicit transaction: run() and exec() between begin() and
  // commit() / rollback() take part in it.
  void begin();
  void commit();
  void rollback() noexcept;
  bool in_transaction() const noexcept;

  // LISTEN on channel; then await_notifications() waits up to timeout and
  // returns how many notifications arrived (0 when none did).
  void listen(const std::string& channel);
  int await_notifications(std::chrono::milliseconds timeout);

  // False once the connection broke or, while idle, was closed by the
  // server; the pool then drops this session.
  bool usable() noexcept;
  int backend_pid() const noexcept;

 private:
  struct Connection;
  // Runs one call on the open transaction, or on a statement-long one, mapping failures.
  template <class Call>
  void guarded(std::string_view operation, std::string_view subject, Call&& call);

  std::unique_ptr<Connection> connection_;
  std::unordered_set<std::string> prepared_;
  std::atomic<std::uint64_t>& statements_;
  bool broken_ = false;
};

}  // namespace act::db
