#include "act/pool.hpp"

#include "act/errors.hpp"
#include "db/session.hpp"

namespace act {

ConnectionPool::ConnectionPool(std::string conninfo, PoolOptions options)
    : conninfo_(std::move(conninfo)), options_(options) {
  if (options_.max_connections == 0) throw std::invalid_argument("ConnectionPool: max_connections must be positive");
}

ConnectionPool::~ConnectionPool() = default;

ConnectionPool::Lease ConnectionPool::acquire() {
  std::vector<std::unique_ptr<db::Session>> broken;  // declared first: closed after the lock is let go
  std::unique_lock lock(mutex_);
  const bool freed_in_time = freed_.wait_for(lock, options_.acquire_timeout, [this] {
    return !idle_.empty() || leased_ < options_.max_connections;
  });
  if (!freed_in_time) {
    throw StoreError("acquire", {},
                     "no database connection became free within " + std::to_string(options_.acquire_timeout.count()) +
                         " ms (pool of " + std::to_string(options_.max_connections) + ")");
  }
  ++leased_;
  // Reuse the most recently returned connection that still works.
  while (!idle_.empty()) {
    std::unique_ptr<db::Session> session = std::move(idle_.back());
    idle_.pop_back();
    if (session->usable()) return Lease(*this, std::move(session));
    broken.push_back(std::move(session));
    ++discarded_;
  }
  lock.unlock();
  // Open a new one outside the lock: connecting takes a round trip or more.
  try {
    return Lease(*this, open_session());
  } catch (...) {
    lock.lock();
    --leased_;
    freed_.notify_one();
    throw;
  }
}

std::unique_ptr<db::Session> ConnectionPool::open_session() {
  auto session = std::make_unique<db::Session>(conninfo_, statements_, &round_trips_);
  const std::lock_guard lock(mutex_);
  ++opened_;
  return session;
}

void ConnectionPool::release(std::unique_ptr<db::Session> session) noexcept {
  {
    const std::lock_guard lock(mutex_);
    --leased_;
    session->rollback();  // a transaction left open by a failed caller must not reach the next one
    if (session->usable()) {
      idle_.push_back(std::move(session));
    } else {
      ++discarded_;
    }
  }
  freed_.notify_one();
  // A dropped session closes its connection here, outside the lock.
}

PoolStats ConnectionPool::stats() const {
  const std::lock_guard lock(mutex_);
  return PoolStats{opened_, discarded_, statements_.load(std::memory_order_relaxed),
                   round_trips_.load(std::memory_order_relaxed), idle_.size(), leased_};
}

ConnectionPool::Lease::Lease(ConnectionPool& pool, std::unique_ptr<db::Session> session) noexcept
    : pool_(&pool), session_(std::move(session)) {}

ConnectionPool::Lease::Lease(Lease&& other) noexcept
    : pool_(other.pool_), session_(std::move(other.session_)) {}

ConnectionPool::Lease& ConnectionPool::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    give_back();
    pool_ = other.pool_;
    session_ = std::move(other.session_);
  }
  return *this;
}

ConnectionPool::Lease::~Lease() { give_back(); }

void ConnectionPool::Lease::give_back() noexcept {
  if (session_) pool_->release(std::move(session_));
}

int ConnectionPool::Lease::backend_pid() const noexcept { return session_->backend_pid(); }

}  // namespace act
