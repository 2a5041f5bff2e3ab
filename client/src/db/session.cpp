// The only file that talks to libpqxx (6.4) about connections and
// statements; an upgrade of the driver stays here and in row.cpp.
#include "db/session.hpp"

#include <poll.h>

#include <limits>
#include <map>
#include <stdexcept>
#include <vector>

#include <pqxx/connection>
#include <pqxx/except>
#include <pqxx/nontransaction>
#include <pqxx/notification>
#include <pqxx/pipeline>
#include <pqxx/prepared_statement>
#include <pqxx/result>
#include <pqxx/transaction>

#include "db/error_mapping.hpp"

namespace act::db {
namespace {

template <class Kind>
bool is_a(const std::exception& error) {
  return dynamic_cast<const Kind*>(&error) != nullptr;
}

// libpqxx 6 reports some errors (those raised while it prepares a
// statement) as the right exception class but without the SQLSTATE; the
// class still tells the code, or at least its class.
std::string sqlstate_of(const pqxx::sql_error& error) {
  if (!error.sqlstate().empty()) return error.sqlstate();
  if (is_a<pqxx::insufficient_privilege>(error)) return "42501";
  if (is_a<pqxx::undefined_function>(error)) return "42883";
  if (is_a<pqxx::undefined_table>(error)) return "42P01";
  if (is_a<pqxx::undefined_column>(error)) return "42703";
  if (is_a<pqxx::syntax_error>(error)) return "42601";
  if (is_a<pqxx::feature_not_supported>(error)) return "0A000";
  if (is_a<pqxx::data_exception>(error)) return "22000";
  if (is_a<pqxx::integrity_constraint_violation>(error)) return "23000";
  if (is_a<pqxx::insufficient_resources>(error)) return "53000";
  if (is_a<pqxx::plpgsql_error>(error)) return "P0000";
  return {};
}

std::string rollback_sqlstate(const pqxx::transaction_rollback& error) {
  if (is_a<pqxx::serialization_failure>(error)) return "40001";
  if (is_a<pqxx::deadlock_detected>(error)) return "40P01";
  if (is_a<pqxx::statement_completion_unknown>(error)) return "40003";
  return "40000";
}

}  // namespace

// Keeps the payloads of the notifications libpqxx hands to this channel's receiver.
class NotificationInbox final : public pqxx::notification_receiver {
 public:
  NotificationInbox(pqxx::connection_base& connection, const std::string& channel, std::vector<std::string>& received)
      : pqxx::notification_receiver(connection, channel), received_(received) {}
  void operator()(const std::string& payload, int) override { received_.push_back(payload); }

 private:
  std::vector<std::string>& received_;
};

struct Session::Connection {
  struct Queued {
    pqxx::pipeline::query_id query;
    std::string operation;
    std::string subject;
  };

  explicit Connection(const std::string& conninfo) : handle(conninfo) {}
  pqxx::connection handle;
  // Open between begin() and commit() / rollback(): a pqxx::work, or after
  // begin_queued() a pqxx::nontransaction whose BEGIN and COMMIT are statements of the queue.
  std::unique_ptr<pqxx::transaction_base> transaction;
  bool statements_delimit = false;  // the begin_queued() kind
  std::unique_ptr<pqxx::pipeline> pipeline;  // on transaction, while statements are queued
  std::map<std::size_t, Queued> queued;      // ticket -> query, not collected yet
  std::vector<std::string> preparing;        // names PREPAREd in the open pipeline
  std::size_t next_ticket = 0;
  std::size_t unsent_from = 0;  // tickets from here on have not gone to the server yet
  std::vector<std::unique_ptr<NotificationInbox>> listeners;
  std::vector<std::string> notifications;  // payloads received by the current await
};

Session::Session(const std::string& conninfo, std::atomic<std::uint64_t>& statement_counter,
                 std::atomic<std::uint64_t>* round_trip_counter)
    : statements_(statement_counter), round_trips_(round_trip_counter) {
  try {
    // libpqxx 6 would reconnect a broken connection by itself on a later
    // call; that never happens here because a session that broke is marked
    // and the pool drops it.
    connection_ = std::make_unique<Connection>(conninfo);
  } catch (const pqxx::sql_error& error) {
    throw_mapped({"connect", error.sqlstate(), error.what(), {}, true});
  } catch (const std::exception& error) {
    throw_mapped({"connect", {}, error.what(), {}, true});
  }
}

Session::~Session() { rollback(); }

bool Session::usable() noexcept {
  if (broken_ || !connection_->handle.is_open()) return false;
  // An idle connection has nothing to say: input waiting on it is the
  // server's goodbye (a FATAL message, then end of file) after its backend
  // was terminated or the server shut down. Checking costs no round trip.
  // (A listening session is not idle in that sense: it is never pooled.)
  pollfd socket{connection_->handle.sock(), POLLIN, 0};
  if (socket.fd < 0 || (connection_->listeners.empty() && ::poll(&socket, 1, 0) != 0)) broken_ = true;
  return !broken_;
}

int Session::backend_pid() const noexcept { return connection_->handle.backendpid(); }

void Session::cancel() noexcept {
  try {
    connection_->handle.cancel_query();
  } catch (...) {
    // Not delivered: the statement ends by itself (its own timeout).
  }
}

void Session::count_round_trip() noexcept {
  if (round_trips_) round_trips_->fetch_add(1, std::memory_order_relaxed);
}

template <class Call>
void Session::guarded(std::string_view operation_name, std::string_view subject, Call&& call, bool counted) {
  const std::string operation(operation_name);
  const std::string about(subject);
  try {
    if (counted) statements_.fetch_add(1, std::memory_order_relaxed);
    if (connection_->transaction) {
      call(*connection_->transaction);
    } else {
      pqxx::nontransaction transaction(connection_->handle);
      call(transaction);
    }
  } catch (const pqxx::broken_connection& error) {
    broken_ = true;
    throw_mapped({operation, {}, error.what(), about, true});
  } catch (const pqxx::sql_error& error) {
    const std::string sqlstate = sqlstate_of(error);
    // A terminated backend reports its FATAL error as a result, and libpq
    // marks the connection bad as it reads the end of the stream.
    const bool lost = is_connection_loss(sqlstate) || !connection_->handle.is_open();
    if (lost) broken_ = true;
    throw_mapped({operation, sqlstate, error.what(), about, lost});
  } catch (const pqxx::transaction_rollback& error) {
    // libpqxx 6 keeps class 40 apart from sql_error and drops its SQLSTATE: restore it.
    throw_mapped({operation, rollback_sqlstate(error), error.what(), about});
  } catch (const std::exception& error) {
    // In doubt about the connection's state: never hand it out again.
    broken_ = true;
    throw_mapped({operation, {}, error.what(), about});
  }
}

namespace {

// libpq takes NULL as a null pointer: point into the optional strings.
std::vector<const char*> pointers_into(const Params& params) {
  std::vector<const char*> values;
  values.reserve(params.values().size());
  for (const auto& value : params.values()) values.push_back(value ? value->c_str() : nullptr);
  return values;
}

}  // namespace

void Session::run(const Statement& statement, const Params& params, const std::function<void(const Row&)>& on_row,
                  std::string_view subject) {
  finish_queue();
  const std::string name(statement.name);
  pqxx::result result;
  guarded(statement.operation, subject, [&](pqxx::transaction_base& transaction) {
    if (!prepared_.contains(name)) {
      connection_->handle.prepare(name, std::string(statement.sql));
      prepared_.insert(name);
      count_round_trip();  // libpqxx prepares on first use, in a round trip of its own
    }
    const std::vector<const char*> values = pointers_into(params);
    count_round_trip();
    result = transaction.exec_prepared(name, pqxx::prepare::make_dynamic_params(values));
  });
  for (const pqxx::row& row : result) on_row(Row(row));
}

void Session::exec(std::string_view sql, const Params& params, const std::function<void(const Row&)>& on_row) {
  finish_queue();
  pqxx::result result;
  guarded("sql", {}, [&](pqxx::transaction_base& transaction) {
    const std::vector<const char*> values = pointers_into(params);
    count_round_trip();
    result = transaction.exec_params(std::string(sql), pqxx::prepare::make_dynamic_params(values));
  });
  for (const pqxx::row& row : result) on_row(Row(row));
}

std::size_t Session::queue(std::string_view sql, const Params& params, std::string_view operation,
                           std::string_view subject) {
  if (!connection_->transaction) throw std::logic_error("Session::queue(): no open transaction");
  const std::size_t ticket = connection_->next_ticket++;
  guarded(operation, subject, [&](pqxx::transaction_base& transaction) {
    if (!connection_->pipeline) {
      connection_->pipeline = std::make_unique<pqxx::pipeline>(transaction);
      // Nothing is sent until a result is needed: the queue goes in one round trip.
      connection_->pipeline->retain(std::numeric_limits<int>::max());
    }
    std::string text(sql);
    if (!params.values().empty()) {
      // A pipeline takes query text only: the parameters travel as literals
      // of EXECUTE, typed by the statement as PREPARE infers them (as an
      // unprepared parameterized statement's would be).
      auto [named, inserted] = queued_names_.try_emplace(text);
      if (inserted) {
        named->second = "act_queued_" + std::to_string(++queued_serial_);
        connection_->pipeline->insert("PREPARE " + named->second + " AS " + text);
        connection_->preparing.push_back(text);
      }
      std::string execute = "EXECUTE " + named->second + "(";
      for (std::size_t i = 0; i < params.values().size(); ++i) {
        const auto& value = params.values()[i];
        execute += (i ? ", " : "") + (value ? transaction.quote(*value) : std::string("NULL"));
      }
      text = execute + ")";
    }
    connection_->queued.emplace(
        ticket, Connection::Queued{connection_->pipeline->insert(text), std::string(operation), std::string(subject)});
  });
  return ticket;
}

void Session::collect(std::size_t ticket, const std::function<void(const Row&)>& on_row) {
  const auto found = connection_->queued.find(ticket);
  if (found == connection_->queued.end()) throw std::logic_error("Session::collect(): no such queued statement");
  pqxx::result result;
  const Connection::Queued queued = std::move(found->second);
  connection_->queued.erase(found);
  if (ticket >= connection_->unsent_from) {
    // libpqxx sends every statement not sent yet when one of them is waited for.
    count_round_trip();
    connection_->unsent_from = connection_->next_ticket;
  }
  try {
    guarded(queued.operation, queued.subject,
            [&](pqxx::transaction_base&) { result = connection_->pipeline->retrieve(queued.query); }, false);
  } catch (...) {
    abandon_queue();
    throw;
  }
  for (const pqxx::row& row : result) on_row(Row(row));
}

void Session::finish_queue() {
  if (!connection_ || !connection_->pipeline) return;
  try {
    while (!connection_->queued.empty()) collect(connection_->queued.begin()->first, [](const Row&) {});
    guarded("sql", {}, [&](pqxx::transaction_base&) { connection_->pipeline->complete(); }, false);
  } catch (...) {
    abandon_queue();
    throw;
  }
  connection_->pipeline.reset();
}

bool Session::queueing() const noexcept { return connection_->pipeline != nullptr; }

void Session::forget_prepared_here() noexcept {
  // Whether a PREPARE of a transaction that did not commit still stands is
  // not worth knowing: the texts get new names next time.
  for (const std::string& text : connection_->preparing) queued_names_.erase(text);
  connection_->preparing.clear();
}

void Session::abandon_queue() noexcept {
  forget_prepared_here();
  connection_->queued.clear();
  connection_->unsent_from = connection_->next_ticket;
  try {
    if (connection_->pipeline) connection_->pipeline->cancel();
  } catch (...) {
    broken_ = true;
  }
  connection_->pipeline.reset();
}

void Session::begin() {
  if (connection_->transaction) throw std::logic_error("Session::begin(): a transaction is already open");
  try {
    statements_.fetch_add(1, std::memory_order_relaxed);
    count_round_trip();
    connection_->transaction = std::make_unique<pqxx::work>(connection_->handle);
  } catch (const std::exception& error) {
    broken_ = true;
    throw_mapped({"BEGIN", {}, error.what(), {}});
  }
}

void Session::begin_queued() {
  if (connection_->transaction) throw std::logic_error("Session::begin_queued(): a transaction is already open");
  try {
    connection_->transaction = std::make_unique<pqxx::nontransaction>(connection_->handle);
  } catch (const std::exception& error) {
    broken_ = true;
    throw_mapped({"BEGIN", {}, error.what(), {}});
  }
  connection_->statements_delimit = true;
  queue("BEGIN", Params(), "BEGIN");
}

void Session::commit_queued() {
  try {
    queue("COMMIT", Params(), "COMMIT");
    // Every statement before COMMIT is collected first, in order: COMMIT is
    // only reached, and so only commits, when none of them failed.
    finish_queue();
  } catch (...) {
    rollback();
    throw;
  }
  connection_->transaction.reset();
  connection_->statements_delimit = false;
  connection_->preparing.clear();
}

void Session::commit() {
  if (!connection_->transaction) throw std::logic_error("Session::commit(): no open transaction");
  if (connection_->statements_delimit) return commit_queued();
  finish_queue();
  const std::unique_ptr<pqxx::transaction_base> transaction = std::move(connection_->transaction);
  try {
    count_round_trip();
    transaction->commit();
    connection_->preparing.clear();
  } catch (const pqxx::in_doubt_error& error) {
    forget_prepared_here();
    // The server may or may not have committed: the caller cannot know, so neither can this connection.
    broken_ = true;
    throw_mapped({"COMMIT", "40003", error.what(), {}});
  } catch (const pqxx::broken_connection& error) {
    forget_prepared_here();
    broken_ = true;
    throw_mapped({"COMMIT", {}, error.what(), {}, true});
  } catch (const pqxx::sql_error& error) {
    forget_prepared_here();
    throw_mapped({"COMMIT", sqlstate_of(error), error.what(), {}});
  } catch (const pqxx::transaction_rollback& error) {
    forget_prepared_here();
    throw_mapped({"COMMIT", rollback_sqlstate(error), error.what(), {}});
  } catch (const std::exception& error) {
    forget_prepared_here();
    broken_ = true;
    throw_mapped({"COMMIT", {}, error.what(), {}});
  }
}

void Session::rollback() noexcept {
  if (!connection_ || !connection_->transaction) return;
  if (connection_->pipeline) abandon_queue();
  forget_prepared_here();
  try {
    count_round_trip();
    // A queued BEGIN may or may not have reached the server: ROLLBACK
    // outside a transaction only warns.
    if (connection_->statements_delimit) connection_->transaction->exec0("ROLLBACK");
    connection_->transaction->abort();
  } catch (...) {
    broken_ = true;  // the server ends the transaction when the connection goes
  }
  connection_->transaction.reset();
  connection_->statements_delimit = false;
}

bool Session::in_transaction() const noexcept { return connection_->transaction != nullptr; }

void Session::listen(const std::string& channel) {
  try {
    connection_->listeners.push_back(
        std::make_unique<NotificationInbox>(connection_->handle, channel, connection_->notifications));
  } catch (const std::exception& error) {
    broken_ = true;
    throw_mapped({"LISTEN", {}, error.what(), {}});
  }
}

std::vector<std::string> Session::await_notifications(std::chrono::milliseconds timeout) {
  connection_->notifications.clear();
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(timeout).count();
  try {
    connection_->handle.await_notification(static_cast<long>(micros / 1'000'000), static_cast<long>(micros % 1'000'000));
  } catch (const std::exception& error) {
    broken_ = true;
    throw_mapped({"LISTEN", {}, error.what(), {}});
  }
  if (!connection_->handle.is_open()) {
    broken_ = true;
    throw_mapped({"LISTEN", {}, "the connection was lost while waiting for notifications", {}});
  }
  return std::move(connection_->notifications);
}

}  // namespace act::db
