#pragma once
// The error bridge between C++ exceptions and Postgres errors.
//
// - C++ -> Postgres: every SQL entry point is declared with ACT_SQL_FUNCTION;
//   its body runs inside try/catch and the Postgres error is raised only after
//   the catch block has ended, so no C++ object is alive when Postgres longjmps.
// - Postgres -> C++: every call into Postgres that can ereport goes through
//   Guard(), which turns the longjmp into a PgError exception; the lambda given
//   to Guard must hold no objects with destructors.
#include <exception>
#include <type_traits>

#include "pg.hpp"

namespace act::pg {

// A Postgres error caught by Guard; rethrown unchanged (SQLSTATE, detail, hint) at the boundary.
class PgError : public std::exception {
 public:
  explicit PgError(ErrorData* data) : data_(data) {}
  ErrorData* data() const noexcept { return data_; }
  const char* what() const noexcept override;

 private:
  ErrorData* data_;
};

[[noreturn]] void ThrowCaughtPgError(MemoryContext target, sigjmp_buf* stack, ErrorContextCallback* context);

template <typename F>
auto Guard(F&& call) -> std::invoke_result_t<F&> {
  using Result = std::invoke_result_t<F&>;
  static_assert(std::is_void_v<Result> || std::is_trivially_copyable_v<Result>,
                "Guard returns only plain values: nothing with a destructor may cross a longjmp");
  // A longjmp out of the call skips the destructors of whatever the lambda
  // holds: it may capture pointers, references and plain values only.
  static_assert(std::is_trivially_destructible_v<std::remove_reference_t<F>>,
                "Guard's callable must hold nothing with a destructor (capture pointers or references)");
  sigjmp_buf* const saved_stack = PG_exception_stack;
  ErrorContextCallback* const saved_context = error_context_stack;
  const MemoryContext saved_memory = CurrentMemoryContext;
  sigjmp_buf local;
  if (sigsetjmp(local, 0) != 0) ThrowCaughtPgError(saved_memory, saved_stack, saved_context);
  PG_exception_stack = &local;
  try {
    if constexpr (std::is_void_v<Result>) {
      call();
      PG_exception_stack = saved_stack;
      error_context_stack = saved_context;
    } else {
      Result result = call();
      PG_exception_stack = saved_stack;
      error_context_stack = saved_context;
      return result;
    }
  } catch (...) {
    PG_exception_stack = saved_stack;
    error_context_stack = saved_context;
    throw;
  }
}

using SqlFunction = Datum (*)(FunctionCallInfo);

// Runs an SQL entry point's body and reports any exception as a Postgres error.
Datum Invoke(SqlFunction body, FunctionCallInfo fcinfo);

}  // namespace act::pg

// Declares an SQL-callable function whose body is C++ run through the bridge.
#define ACT_SQL_FUNCTION(name)                                                           \
  static Datum name##_body([[maybe_unused]] FunctionCallInfo fcinfo);                    \
  extern "C" {                                                                           \
  PG_FUNCTION_INFO_V1(name);                                                             \
  Datum name(PG_FUNCTION_ARGS) { return act::pg::Invoke(name##_body, fcinfo); }          \
  }                                                                                      \
  static Datum name##_body([[maybe_unused]] FunctionCallInfo fcinfo)
