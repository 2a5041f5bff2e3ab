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

// How a kept plan is re-planned. kGeneric is for statements written so that
// one plan fits every argument (e.g. index lookups by construction): it saves
// the planning that the plan cache would otherwise repeat on every call.
enum class PlanMode { kAuto, kGeneric };

// A plan prepared on first use and kept for the life of the backend.
class SavedPlan {
 public:
  SavedPlan(std::string sql, int nargs, const Oid* argtypes, PlanMode mode = PlanMode::kAuto)
      : sql_(std::move(sql)), nargs_(nargs), argtypes_(argtypes), mode_(mode) {}
  SPIPlanPtr Get();

 private:
  std::string sql_;
  int nargs_;
  const Oid* argtypes_;
  PlanMode mode_;
  SPIPlanPtr plan_ = nullptr;
};

// Prepares and keeps a plan for SQL text built at run time.
SPIPlanPtr PrepareKept(const std::string& sql, int nargs, const Oid* argtypes, PlanMode mode = PlanMode::kAuto);

// Runs a plan; throws PgError on failure, or when SPI reports a code other than expected.
void Execute(SPIPlanPtr plan, Datum* values, const char* nulls, bool read_only, long count, int expected);

// The same under the latest snapshot (with this transaction's own earlier
// writes), whatever the isolation level: for statements that must see every
// committed subscription or event once a lock has excluded the writers that
// matter, where a REPEATABLE READ snapshot taken earlier would miss some.
void ExecuteOnLatest(SPIPlanPtr plan, Datum* values, const char* nulls, bool read_only, long count, int expected);

}  // namespace act::pg
