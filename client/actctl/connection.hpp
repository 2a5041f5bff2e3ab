#pragma once
// The database the commands talk to (--dsn or the PG* environment), through
// the client library's store layer: act::Store, act::Monitor, act::LogStore.
#include <memory>
#include <string>

#include "act/pool.hpp"

namespace actctl {

// The global connection option, filled in by main's parser before a command runs.
struct Database {
  std::string dsn;  // "" = libpq's defaults and the PG* environment
};

// One connection, opened by the first call. A connection that cannot be made
// or is lost is an act::ConnectionError, which main turns into exit 2.
std::shared_ptr<act::ConnectionPool> OpenPool(const Database& db);

}  // namespace actctl
