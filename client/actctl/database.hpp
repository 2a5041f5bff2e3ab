#pragma once
// What the database commands share: the connection (--dsn or the PG*
// environment), how their errors map to exit codes, and plain-text tables
// for their output.
#include <memory>
#include <pqxx/pqxx>
#include <stdexcept>
#include <string>
#include <vector>

#include "connection.hpp"
#include "table.hpp"

namespace actctl {

// Opens a connection; a connection string libpq cannot use, or a server it
// cannot reach, is a UsageError (exit 2) with one line saying why.
std::unique_ptr<pqxx::connection> Connect(const Database& db);

// A connection that broke while a command ran (the server went away, the
// backend was terminated): main exits kUnusable with one line, as for a
// connection that could not be made.
class ConnectionLost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Called inside a catch block of a libpqxx error: an error after which the
// connection is gone becomes a ConnectionLost, the server's refusal of an
// argument (SQLSTATE class 22, 2201B included) a UsageError; anything else
// is rethrown as it is (a database error, exit 1).
[[noreturn]] void RethrowClassified(const pqxx::connection_base& connection);

// Connects and runs `command(connection)`, its libpqxx errors classified as
// RethrowClassified says; returns the command's exit code.
template <typename Command>
int RunConnected(const Database& db, Command&& command) {
  const auto connection = Connect(db);
  try {
    return command(*connection);
  } catch (const pqxx::failure&) {
    RethrowClassified(*connection);
  }
}

// A field's text, "-" for NULL.
std::string Text(const pqxx::field& field);

}  // namespace actctl
