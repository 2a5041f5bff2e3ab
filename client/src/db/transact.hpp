#pragma once
// The application's own SQL (App::transact, a projection's setup and
// rebuild) in one transaction on a pooled connection.
#include <functional>

#include "act/pool.hpp"
#include "act/sql.hpp"
#include "db/transaction.hpp"

namespace act::db {

// Commits when work returns; rolls back when it throws.
inline void transact(ConnectionPool& pool, const std::function<void(Sql&)>& work) {
  ConnectionPool::Lease connection = pool.acquire();
  Transaction transaction(connection.session());
  Sql sql(connection.session());
  work(sql);
  transaction.commit();
}

}  // namespace act::db
