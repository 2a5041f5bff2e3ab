#include "spi.hpp"

#include <exception>

namespace act::pg {

SpiSession::SpiSession() {
  Guard([] {
    if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "pg_act: SPI_connect failed");
  });
}

SpiSession::~SpiSession() {
  // On the error path the transaction abort cleans SPI up; on a path that
  // forgot Finish() we still must not leave the SPI stack behind.
  if (!finished_ && std::uncaught_exceptions() == 0) {
    try {
      Guard([] { SPI_finish(); });
    } catch (...) {
      // A destructor must not throw; the transaction's abort cleans SPI up.
    }
  }
}

void SpiSession::Finish() {
  Guard([] { SPI_finish(); });
  finished_ = true;
}

SPIPlanPtr PrepareKept(const std::string& sql, int nargs, const Oid* argtypes, PlanMode mode) {
  const char* text = sql.c_str();
  const int options = mode == PlanMode::kGeneric ? CURSOR_OPT_GENERIC_PLAN : 0;
  return Guard([text, nargs, argtypes, options] {
    SPIPlanPtr plan = SPI_prepare_cursor(text, nargs, const_cast<Oid*>(argtypes), options);
    if (plan == nullptr) elog(ERROR, "pg_act: SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
    if (SPI_keepplan(plan) != 0) elog(ERROR, "pg_act: SPI_keepplan failed");
    return plan;
  });
}

SPIPlanPtr SavedPlan::Get() {
  if (plan_ == nullptr) plan_ = PrepareKept(sql_, nargs_, argtypes_, mode_);
  return plan_;
}

void Execute(SPIPlanPtr plan, Datum* values, const char* nulls, bool read_only, long count, int expected) {
  Guard([plan, values, nulls, read_only, count, expected] {
    const int code = SPI_execute_plan(plan, values, nulls, read_only, count);
    if (code != expected) elog(ERROR, "pg_act: SPI returned %s", SPI_result_code_string(code));
  });
}

void ExecuteOnLatest(SPIPlanPtr plan, Datum* values, const char* nulls, bool read_only, long count, int expected) {
  Guard([plan, values, nulls, read_only, count, expected] {
    CommandCounterIncrement();
    const int code =
        SPI_execute_snapshot(plan, values, nulls, GetLatestSnapshot(), InvalidSnapshot, read_only, true, count);
    if (code != expected) elog(ERROR, "pg_act: SPI returned %s", SPI_result_code_string(code));
  });
}

}  // namespace act::pg
