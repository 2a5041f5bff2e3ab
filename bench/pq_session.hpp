#pragma once
// libpq with RAII, for the benchmark and stress programs (the client library
// is not used there, so they measure the SQL calls themselves).
#include <libpq-fe.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
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

// Connects with the PG* environment.
inline Connection Connect() {
  Connection connection(PQconnectdb(""));
  if (PQstatus(connection.get()) != CONNECTION_OK) throw std::runtime_error(PQerrorMessage(connection.get()));
  return connection;
}

// Runs one statement with text parameters; throws on any error.
inline Result Run(PGconn* connection, const std::string& sql, const std::vector<std::string>& params = {}) {
  std::vector<const char*> values;
  for (const std::string& param : params) values.push_back(param.c_str());
  Result result(PQexecParams(connection, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                             nullptr, nullptr, 0));
  const ExecStatusType status = PQresultStatus(result.get());
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK)
    throw std::runtime_error(sql + ": " + PQresultErrorMessage(result.get()));
  return result;
}

inline long long Scalar(PGconn* connection, const std::string& sql) {
  Result result = Run(connection, sql);
  return std::atoll(PQgetvalue(result.get(), 0, 0));
}

}  // namespace pq
