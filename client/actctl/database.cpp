#include "database.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <pqxx/pqxx>

#include "command.hpp"

namespace actctl {

std::string OneLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

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

void PrintTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size(), 0);
  auto measure = [&width](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], row[i].size());
  };
  measure(header);
  for (const auto& row : rows) measure(row);
  auto print = [&width](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) {
      if (i + 1 == row.size())
        line += row[i];
      else
        line += fmt::format("{:<{}}  ", row[i], width[i]);
    }
    fmt::print("{}\n", line);
  };
  print(header);
  for (const auto& row : rows) print(row);
}

}  // namespace actctl
