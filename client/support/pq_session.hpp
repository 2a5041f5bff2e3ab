#pragma once
// libpq with RAII, for the benchmark and stress programs (the client library
// is not used there, so they measure the SQL calls themselves).
#include <libpq-fe.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pq {

struct ConnectionClose {
  void operator()(PGconn* connection) const { PQfinish(connection); }
};
struct ResultClear {
  void operator()(PGresult* result) const { PQclear(result); }
};
using Connection = std::unique_ptr<PGconn, ConnectionClose>;
using Result = std::unique_ptr<PGresult, ResultClear>;

// A failed statement; sqlstate is empty when the server sent none (a lost connection).
struct Error : std::runtime_error {
  Error(const std::string& message, std::string code) : std::runtime_error(message), sqlstate(std::move(code)) {}
  std::string sqlstate;
};

// Connects with the PG* environment, and `conninfo` over it when given.
inline Connection Connect(const std::string& conninfo = "") {
  Connection connection(PQconnectdb(conninfo.c_str()));
  if (PQstatus(connection.get()) != CONNECTION_OK) throw Error(PQerrorMessage(connection.get()), "");
  return connection;
}

// Runs one statement with text parameters (std::nullopt is SQL NULL); throws pq::Error.
inline Result Run(PGconn* connection, const std::string& sql,
                  const std::vector<std::optional<std::string>>& params = {}) {
  std::vector<const char*> values;
  for (const auto& param : params) values.push_back(param ? param->c_str() : nullptr);
  Result result(PQexecParams(connection, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                             nullptr, nullptr, 0));
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    const char* code = PQresultErrorField(result.get(), PG_DIAG_SQLSTATE);
    throw Error(sql + ": " + PQresultErrorMessage(result.get()), code ? code : "");
  }
  return result;
}

inline long long Scalar(PGconn* connection, const std::string& sql) {
  Result result = Run(connection, sql);
  return std::atoll(PQgetvalue(result.get(), 0, 0));
}

// Sends data (COPY text format) through a COPY ... FROM STDIN statement.
inline void CopyIn(PGconn* connection, const std::string& copy_sql, const std::string& data) {
  Result started(PQexec(connection, copy_sql.c_str()));
  if (PQresultStatus(started.get()) != PGRES_COPY_IN) throw Error(copy_sql + ": " + PQerrorMessage(connection), "");
  if (PQputCopyData(connection, data.data(), static_cast<int>(data.size())) != 1 ||
      PQputCopyEnd(connection, nullptr) != 1)
    throw Error(copy_sql + ": " + PQerrorMessage(connection), "");
  Result ended(PQgetResult(connection));
  if (PQresultStatus(ended.get()) != PGRES_COMMAND_OK) throw Error(copy_sql + ": " + PQerrorMessage(connection), "");
  while (Result(PQgetResult(connection))) {
  }
}

}  // namespace pq
