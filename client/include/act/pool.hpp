#pragma once
// A small thread-safe pool of database connections. A caller leases one
// connection for one call and gives it back by letting the lease go; a
// connection that broke during the call is dropped instead of returned, and
// a broken idle one is replaced at checkout, so the pool heals by itself.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace act {

namespace db {
class Session;
}

struct PoolOptions {
  std::size_t max_connections = 4;
  // How long acquire() waits for a free connection before giving up.
  std::chrono::milliseconds acquire_timeout{30'000};
};

struct PoolStats {
  std::uint64_t opened = 0;      // connections ever opened
  std::uint64_t discarded = 0;   // connections dropped because they broke
  std::uint64_t statements = 0;  // statements sent to the server
  std::uint64_t round_trips = 0; // waits for the server's reply (pipelined statements share one)
  std::size_t idle = 0;
  std::size_t leased = 0;
};

class ConnectionPool {
 public:
  // conninfo is a libpq connection string; empty means "use the PG* environment".
  explicit ConnectionPool(std::string conninfo, PoolOptions options = {});
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // One connection for the lifetime of the lease. Must not outlive the pool.
  class Lease {
   public:
    Lease(Lease&& other) noexcept;
    Lease& operator=(Lease&& other) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();

    db::Session& session() noexcept { return *session_; }
    // The server process serving this connection (for diagnostics and tests).
    int backend_pid() const noexcept;

   private:
    friend class ConnectionPool;
    Lease(ConnectionPool& pool, std::unique_ptr<db::Session> session) noexcept;
    void give_back() noexcept;

    ConnectionPool* pool_;
    std::unique_ptr<db::Session> session_;
  };

  // Throws act::StoreError when no connection can be opened or none frees up in time.
  Lease acquire();
  PoolStats stats() const;
  const std::string& conninfo() const noexcept { return conninfo_; }

 private:
  void release(std::unique_ptr<db::Session> session) noexcept;
  std::unique_ptr<db::Session> open_session();

  const std::string conninfo_;
  const PoolOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<std::unique_ptr<db::Session>> idle_;
  std::size_t leased_ = 0;  // includes connections being opened
  std::uint64_t opened_ = 0;
  std::uint64_t discarded_ = 0;
  std::atomic<std::uint64_t> statements_{0};
  std::atomic<std::uint64_t> round_trips_{0};
};

}  // namespace act
