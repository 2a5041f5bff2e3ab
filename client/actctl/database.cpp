#include "database.hpp"

#include <pqxx/pqxx>

#include "command.hpp"

namespace actctl {

std::unique_ptr<pqxx::connection> Connect(const Database& db) {
  try {
    return std::make_unique<pqxx::connection>(db.dsn);
  } catch (const std::exception& e) {  // pqxx::broken_connection, or a connection string libpq refuses
    throw UsageError("cannot connect: " + OneLine(e.what()));
  }
}

void RethrowClassified(const pqxx::connection_base& connection) {
  try {
    throw;
  } catch (const pqxx::broken_connection& e) {
    throw ConnectionLost("connection lost: " + OneLine(e.what()));
  } catch (const pqxx::sql_error& e) {
    // A terminated backend reports its FATAL error as a result, and libpq
    // marks the connection bad as it reads the end of the stream.
    if (!connection.is_open()) throw ConnectionLost("connection lost: " + OneLine(e.what()));
    if (e.sqlstate().rfind("22", 0) == 0) throw UsageError(OneLine(e.what()));
    throw;
  }
}

std::string Text(const pqxx::field& field) { return field.is_null() ? "-" : field.c_str(); }

}  // namespace actctl
