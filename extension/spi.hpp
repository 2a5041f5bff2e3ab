#pragma once
// SPI through the error bridge: a connection scoped to one SQL call, and
// plans prepared once per backend.
#include <string>

#include "error_bridge.hpp"

namespace act::pg {

// SPI_connect on construction; Finish() on the success path. On an error the
// abort of the (sub)transaction releases the connection, as SPI documents.
class SpiSession {
 public:
  SpiSession();
  ~SpiSession();
  SpiSession(const SpiSession&) = delete;
  SpiSession& operator=(const SpiSession&) = delete;
  void Finish();

 private:
  bool finished_ = false;
};

// A plan prepared on first use and kept for the life of the backend.
class SavedPlan {
 public:
  SavedPlan(std::string sql, int nargs, const Oid* argtypes)
      : sql_(std::move(sql)), nargs_(nargs), argtypes_(argtypes) {}
  SPIPlanPtr Get();

 private:
  std::string sql_;
  int nargs_;
  const Oid* argtypes_;
  SPIPlanPtr plan_ = nullptr;
};

// Prepares and keeps a plan for SQL text built at run time.
SPIPlanPtr PrepareKept(const std::string& sql, int nargs, const Oid* argtypes);

// Runs a plan; throws PgError on failure, or when SPI reports a code other than expected.
void Execute(SPIPlanPtr plan, Datum* values, const char* nulls, bool read_only, long count, int expected);

}  // namespace act::pg
