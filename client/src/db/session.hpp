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
#include <unordered_map>
#include <unordered_set>

#include "db/params.hpp"
#include "db/row.hpp"
#include "db/statement.hpp"

namespace act::db {

class Session {
 public:
  // Throws act::ConnectionError (operation "connect") when the server is out of reach.
  // round_trip_counter, when given, counts each wait for the server's reply.
  Session(const std::string& conninfo, std::atomic<std::uint64_t>& statement_counter,
          std::atomic<std::uint64_t>* round_trip_counter = nullptr);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Runs statement and hands each row to on_row while the result is alive.
  // subject is the stream the call is about, if any (see DatabaseFailure).
  void run(const Statement& statement, const Params& params, const std::function<void(const Row&)>& on_row,
           std::string_view subject = {});

  // An application's statement with $n parameters, not prepared (a projection's SQL).
  void exec(std::string_view sql, const Params& params, const std::function<void(const Row&)>& on_row);

  // Pipelined statements on the open transaction (a projection's writes):
  // queue() sends nothing yet and returns a ticket; collect() waits for the
  // queued statements up to that ticket and hands its rows over; finish()
  // waits for all of them. Each throws the failure of the first statement
  // that failed. run() and exec() finish the queue before they send.
  // operation and subject name the call in its failure (see DatabaseFailure).
  std::size_t queue(std::string_view sql, const Params& params, std::string_view operation = "sql",
                    std::string_view subject = {});
  void collect(std::size_t ticket, const std::function<void(const Row&)>& on_row);
  void finish_queue();
  bool queueing() const noexcept;

  // An explicit transaction: run() and exec() between begin() and
  // commit() / rollback() take part in it.
  void begin();
  // The same, with BEGIN queued: it travels with the first statements
  // queued after it, and commit() queues COMMIT behind the last ones, so a
  // transaction of queued statements costs no round trip of its own.
  void begin_queued();
  void commit();
  void rollback() noexcept;
  bool in_transaction() const noexcept;

  // LISTEN on channel; then await_notifications() waits up to timeout and
  // returns the payloads of the notifications that arrived (none: empty).
  void listen(const std::string& channel);
  std::vector<std::string> await_notifications(std::chrono::milliseconds timeout);

  // False once the connection broke or, while idle, was closed by the
  // server; the pool then drops this session.
  bool usable() noexcept;
  int backend_pid() const noexcept;
  // Asks the server to end the statement this session runs (none: nothing
  // happens); callable from another thread while run() waits.
  void cancel() noexcept;

 private:
  struct Connection;
  // Runs one call on the open transaction, or on a statement-long one, mapping failures.
  template <class Call>
  void guarded(std::string_view operation, std::string_view subject, Call&& call, bool counted = true);

  // commit() of a begin_queued() transaction.
  void commit_queued();
  // Drops the queue after a failure (the transaction is lost anyway).
  void abandon_queue() noexcept;
  void forget_prepared_here() noexcept;

  std::unique_ptr<Connection> connection_;
  std::unordered_set<std::string> prepared_;
  // Statements prepared with SQL PREPARE for queue(): names of their own, so
  // one whose PREPARE may have failed in a broken pipeline is never reused.
  std::unordered_map<std::string, std::string> queued_names_;
  std::uint64_t queued_serial_ = 0;
  // One more wait for the server's reply.
  void count_round_trip() noexcept;

  std::atomic<std::uint64_t>& statements_;
  std::atomic<std::uint64_t>* round_trips_;
  bool broken_ = false;
};

}  // namespace act::db
