#include "connection.hpp"

namespace actctl {

std::shared_ptr<act::ConnectionPool> OpenPool(const Database& db) {
  // A command makes its calls one after another: one connection is enough.
  return std::make_shared<act::ConnectionPool>(db.dsn, act::PoolOptions{.max_connections = 1});
}

}  // namespace actctl
