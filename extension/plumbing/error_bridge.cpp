#include "error_bridge.hpp"

#include <cstdio>
#include <new>

#include "act/core/errors.hpp"

namespace act::pg {

namespace {

// Holds the message between the end of the catch block and ereport; the
// backend is single-threaded and nothing runs in between.
char g_message[8192];
char g_detail[8192];  // a 1,000-byte stream name escaped as JSON fits
char g_sqlstate[6];

// Cut on a character boundary: the server checks the text's encoding.
// (pg_mbcliplen does not raise errors.)
void Keep(char* target, std::size_t capacity, const char* text) {
  const int length = pg_mbcliplen(text, static_cast<int>(strlen(text)), static_cast<int>(capacity) - 1);
  memcpy(target, text, static_cast<size_t>(length));
  target[length] = '\0';
}

void Remember(const char* code, const char* message, const char* detail = "") {
  snprintf(g_sqlstate, sizeof g_sqlstate, "%s", code);
  Keep(g_message, sizeof g_message, message);
  Keep(g_detail, sizeof g_detail, detail);
}

int ToErrcode(const char* code) { return MAKE_SQLSTATE(code[0], code[1], code[2], code[3], code[4]); }

}  // namespace

const char* PgError::what() const noexcept {
  return data_ != nullptr && data_->message != nullptr ? data_->message : "PostgreSQL error";
}

void ThrowCaughtPgError(MemoryContext target, sigjmp_buf* stack, ErrorContextCallback* context) {
  PG_exception_stack = stack;
  error_context_stack = context;
  // CopyErrorData must not run in ErrorContext; copy to the caller's context.
  MemoryContextSwitchTo(target);
  ErrorData* data = CopyErrorData();
  FlushErrorState();
  throw PgError(data);
}

Datum Invoke(SqlFunction body, FunctionCallInfo fcinfo) {
  ErrorData* pg_error = nullptr;
  try {
    return body(fcinfo);
  } catch (const PgError& error) {
    pg_error = error.data();
  } catch (const core::SqlError& error) {
    Remember(error.code(), error.what(), error.detail().c_str());
  } catch (const std::bad_alloc&) {
    Remember("53200", "out of memory in pg_act");
  } catch (const std::exception& error) {
    Remember(core::sqlstate::kInternalError, error.what());
  } catch (...) {
    Remember(core::sqlstate::kInternalError, "unknown C++ exception in pg_act");
  }
  // Every C++ object of the body is gone: raising is safe now.
  if (pg_error != nullptr) ReThrowError(pg_error);
  if (g_detail[0] != '\0')
    ereport(ERROR, (errcode(ToErrcode(g_sqlstate)), errmsg("%s", g_message), errdetail("%s", g_detail)));
  ereport(ERROR, (errcode(ToErrcode(g_sqlstate)), errmsg("%s", g_message)));
  pg_unreachable();
}

}  // namespace act::pg
