#pragma once
// Errors raised by Postgres-free code. Each carries the SQLSTATE the SQL
// boundary reports, so the extension never has to guess a code.
#include <stdexcept>
#include <string>

namespace act::core {

// Five-character SQLSTATE codes used by pg_act (docs/reference.md, "Errors").
namespace sqlstate {
inline constexpr const char* kInvalidParameterValue = "22023";
inline constexpr const char* kNullValueNotAllowed = "22004";
inline constexpr const char* kInvalidRegularExpression = "2201B";
inline constexpr const char* kSerializationFailure = "40001";
inline constexpr const char* kObjectNotInPrerequisiteState = "55000";
inline constexpr const char* kReadOnlySqlTransaction = "25006";
inline constexpr const char* kInternalError = "XX000";
inline constexpr const char* kDataCorrupted = "XX001";
}  // namespace sqlstate

class SqlError : public std::runtime_error {
 public:
  SqlError(const char* code, const std::string& message, std::string detail = {})
      : std::runtime_error(message), code_(code), detail_(std::move(detail)) {}
  const char* code() const noexcept { return code_; }
  // Structured detail for programs (a JSON object), sent as the error's
  // DETAIL; empty when none. Clients read it instead of the English message.
  const std::string& detail() const noexcept { return detail_; }

 private:
  const char* code_;
  std::string detail_;
};

// Malformed input: the message names the argument and the fault.
class ValidationError : public SqlError {
 public:
  explicit ValidationError(const std::string& message, const char* code = sqlstate::kInvalidParameterValue)
      : SqlError(code, message) {}
};

// Optimistic concurrency: the stream's head is not what the caller expected.
// DETAIL: {"stream": s, "expected": e (null for "any"), "actual": a}.
class ConcurrencyError : public SqlError {
 public:
  ConcurrencyError(const std::string& stream, long long expected, long long actual);
  // expected is "any" when the caller gave no expected version.
  ConcurrencyError(const std::string& stream, long long actual);
};

// A commit to a stream whose last event is a tombstone. DETAIL: {"stream": s}.
class ClosedStreamError : public SqlError {
 public:
  explicit ClosedStreamError(const std::string& stream);
};

}  // namespace act::core
