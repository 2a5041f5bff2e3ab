#pragma once
// What every example does first: connect, and make sure pg_act is there.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "act/act.hpp"

namespace example {

// argv[1] is a libpq connection string; without it libpq reads PGHOST, PGPORT, PGDATABASE, ...
inline std::shared_ptr<act::ConnectionPool> connect(int argc, char** argv, std::size_t connections = 4) {
  auto pool = std::make_shared<act::ConnectionPool>(argc > 1 ? argv[1] : "", act::PoolOptions{connections});
  act::ensure_extension(*pool);
  return pool;
}

// A suffix that keeps this run's streams apart from earlier runs on the same database.
inline std::string run_suffix() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
}

}  // namespace example
