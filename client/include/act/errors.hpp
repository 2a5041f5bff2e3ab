#pragma once
// The errors the client raises. Database errors are translated into these in
// one place (src/db/error_mapping.cpp), so callers never see libpqxx types.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "act/drain.hpp"

namespace act {

// The base of every error this library throws on purpose.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Infrastructure failed: a lost connection, a missing grant, an unexpected
// SQLSTATE. operation names the call ("act.commit", "connect", ...);
// sqlstate is empty when the server sent none (the connection was lost).
class StoreError : public Error {
 public:
  StoreError(std::string operation, std::string sqlstate, const std::string& message);
  const std::string& operation() const noexcept { return operation_; }
  const std::string& sqlstate() const noexcept { return sqlstate_; }

 private:
  std::string operation_;
  std::string sqlstate_;
};

// A StoreError after which the connection is gone: it could not be made
// (operation "connect": a connection string libpq refuses, a server out of
// reach, a missing database) or it broke during the call (the server went
// away, the backend was terminated). Retrying on a new connection may work.
class ConnectionError : public StoreError {
 public:
  using StoreError::StoreError;
};

// A StoreError met on one partition of a partitioned deployment
// (act/app.hpp over a PartitionMap): the message starts "partition P of N: ", and
// operation and sqlstate are the partition's error's.
class PartitionError : public StoreError {
 public:
  PartitionError(std::int32_t partition, std::int32_t partitions, const StoreError& cause);
  std::int32_t partition() const noexcept { return partition_; }
  std::int32_t partitions() const noexcept { return partitions_; }

 private:
  std::int32_t partition_;
  std::int32_t partitions_;
};

// Optimistic concurrency: the stream's head moved past the expected version.
// expected_version is empty when the commit gave none (a racing writer took
// the version first).
class ConcurrencyError : public Error {
 public:
  ConcurrencyError(std::string stream, std::optional<std::int32_t> expected_version, std::int32_t actual_version);
  const std::string& stream() const noexcept { return stream_; }
  std::optional<std::int32_t> expected_version() const noexcept { return expected_version_; }
  std::int32_t actual_version() const noexcept { return actual_version_; }

 private:
  std::string stream_;
  std::optional<std::int32_t> expected_version_;
  std::int32_t actual_version_;
};

// An append's condition failed (act.append, docs/dcb.md): event `id`, which
// matches item `item` of its fail_if_events_match query, is in the log after
// `after` (empty: no after was given). Decide again on a fresh read.
class AppendConditionError : public Error {
 public:
  AppendConditionError(const std::string& message, std::optional<std::int64_t> after, std::int64_t id,
                       std::int32_t item)
      : Error(message), after_(after), id_(id), item_(item) {}
  std::optional<std::int64_t> after() const noexcept { return after_; }
  std::int64_t id() const noexcept { return id_; }
  std::int32_t item() const noexcept { return item_; }

 private:
  std::optional<std::int64_t> after_;
  std::int64_t id_;
  std::int32_t item_;
};

// Bad input. target is what was being validated (an action or event name, or
// the SQL function that refused it); field names the offending member when
// known (empty otherwise); sqlstate is set when the server raised it.
class ValidationError : public Error {
 public:
  ValidationError(const std::string& message, std::string target, std::string field, std::string sqlstate = {});
  const std::string& target() const noexcept { return target_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& sqlstate() const noexcept { return sqlstate_; }

 private:
  std::string target_;
  std::string field_;
  std::string sqlstate_;
};

// The stream was closed (its last event is a tombstone): it takes no commits.
class StreamClosedError : public Error {
 public:
  explicit StreamClosedError(std::string stream);
  const std::string& stream() const noexcept { return stream_; }

 private:
  std::string stream_;
};

// An action's precondition (a `given` rule) does not hold for the loaded state.
class InvariantError : public Error {
 public:
  InvariantError(std::string action, std::string stream, std::string rule);
  const std::string& action() const noexcept { return action_; }
  const std::string& stream() const noexcept { return stream_; }
  const std::string& rule() const noexcept { return rule_; }

 private:
  std::string action_;
  std::string stream_;
  std::string rule_;
};

// Thrown by a reaction handler for a failure retrying cannot cure: the
// stream is blocked at once (when its reaction blocks on errors).
class NonRetryableError : public Error {
 public:
  using Error::Error;
};

// App::settle_or_throw (or settle with SettleOptions::throw_on_failure): a
// handler failed while settling. Raised once settle has finished its passes;
// result() is what settle would have returned, failures() what failed.
class SettleError : public Error {
 public:
  explicit SettleError(SettleResult result);
  const SettleResult& result() const noexcept { return result_; }
  const std::vector<ReactionFailure>& failures() const noexcept { return result_.failures(); }

 private:
  SettleResult result_;
};

}  // namespace act
