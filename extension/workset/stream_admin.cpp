// Operator functions over subscription rows chosen by a selector
// (docs/reference.md, "Selectors" and the operator functions): act.defer, act.reset, act.unblock,
// act.release, act.prioritize and act.query_streams.
#include <optional>
#include <string>
#include <utility>
#include <unordered_map>
#include <vector>

#include "primary_only.hpp"
#include "act/core/errors.hpp"
#include "act/core/stream_selector.hpp"
#include "arrays.hpp"
#include "error_bridge.hpp"
#include "json_args.hpp"
#include "regex_cache.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg {
namespace {

using core::SelectorStatement;

constexpr int kParamCount = core::kSelectorParamCount + 2;

SPIPlanPtr PlanFor(SelectorStatement statement, const core::StreamSelector& selector, Oid own_type) {
  static std::unordered_map<std::uint64_t, SPIPlanPtr> plans;
  const std::uint64_t key = (std::uint64_t{selector.Key()} << 8) | static_cast<std::uint64_t>(statement);
  if (auto found = plans.find(key); found != plans.end()) return found->second;
  const Oid types[kParamCount] = {TEXTARRAYOID, TEXTOID, TEXTOID, BOOLOID, TEXTOID, TEXTARRAYOID, own_type, INT8OID};
  SPIPlanPtr plan = PrepareKept(core::SelectorStatementSql(statement, selector), kParamCount, types);
  plans.emplace(key, plan);
  return plan;
}

core::StreamSelector ReadSelector(FunctionCallInfo fcinfo, core::SelectorUse use) {
  const char* name = use == core::SelectorUse::kQueryStreams ? "filter" : "selector";
  nlohmann::json input = JsonArgument(fcinfo, 0, name);
  if (input.is_null()) {
    if (use != core::SelectorUse::kQueryStreams)
      throw core::ValidationError(std::string(name) + " must not be null", core::sqlstate::kNullValueNotAllowed);
    input = nlohmann::json::object();
  }
  core::StreamSelector selector = core::ParseSelector(input, use);
  for (const std::string& pattern : selector.Patterns()) ValidatePattern(pattern, name);
  return selector;
}

// Runs the statement; `own` is $7 (and `limit` $8) of the statement.
void Run(SelectorStatement statement, const core::StreamSelector& selector, Oid own_type, Datum own, bool own_null,
         std::optional<int64> limit, int expected) {
  Datum values[kParamCount] = {};
  char nulls[kParamCount + 1] = "nnnnnnnn";
  auto bind = [&values, &nulls](int param, Datum value) {
    values[param - 1] = value;
    nulls[param - 1] = ' ';
  };
  if (selector.streams) bind(core::kSelectStreams, MakeTextArray(*selector.streams));
  if (selector.stream) bind(core::kSelectStream, MakeText(*selector.stream));
  if (selector.source) bind(core::kSelectSource, MakeText(*selector.source));
  if (selector.blocked) bind(core::kSelectBlocked, BoolGetDatum(*selector.blocked));
  if (selector.lane) bind(core::kSelectLane, MakeText(*selector.lane));
  if (selector.source_matches) bind(core::kSelectSourceMatches, MakeTextArray(*selector.source_matches));
  if (!own_null) bind(core::kSelectorParamCount + 1, own);
  if (limit) bind(core::kSelectorParamCount + 2, Int64GetDatum(*limit));
  Execute(PlanFor(statement, selector, own_type), values, nulls, false, 0, expected);
}

// The count of rows an UPDATE statement changed.
// `own` is NULL (and typed int4) for statements without a parameter of their own.
Datum UpdateCount(FunctionCallInfo fcinfo, SelectorStatement statement, std::optional<std::pair<Oid, Datum>> own) {
  const core::StreamSelector selector = ReadSelector(fcinfo, core::SelectorUse::kAdmin);
  if (selector.streams && selector.streams->empty()) return Int32GetDatum(0);
  SpiSession spi;
  Run(statement, selector, own ? own->first : INT4OID, own ? own->second : Datum(0), !own, std::nullopt,
      SPI_OK_UPDATE);
  const auto changed = static_cast<int32>(RowCount());
  spi.Finish();
  return Int32GetDatum(changed);
}

void RequireArgument(FunctionCallInfo fcinfo, int index, const char* name) {
  if (PG_ARGISNULL(index))
    throw core::ValidationError(std::string(name) + " must not be null", core::sqlstate::kNullValueNotAllowed);
}

}  // namespace
}  // namespace act::pg

using namespace act;
using core::SelectorStatement;

// A NULL `until` clears the deferral: the rows are claimable again at once.
ACT_SQL_FUNCTION(act_defer) {
  pg::RequirePrimary("act.defer");
  if (PG_ARGISNULL(1)) return pg::UpdateCount(fcinfo, SelectorStatement::kUndefer, std::nullopt);
  return pg::UpdateCount(fcinfo, SelectorStatement::kDefer, std::pair<Oid, Datum>(TIMESTAMPTZOID, PG_GETARG_DATUM(1)));
}

ACT_SQL_FUNCTION(act_reset) {
  pg::RequirePrimary("act.reset");
  return pg::UpdateCount(fcinfo, SelectorStatement::kReset, std::nullopt);
}

ACT_SQL_FUNCTION(act_unblock) {
  pg::RequirePrimary("act.unblock");
  return pg::UpdateCount(fcinfo, SelectorStatement::kUnblock, std::nullopt);
}

ACT_SQL_FUNCTION(act_release) {
  pg::RequirePrimary("act.release");
  return pg::UpdateCount(fcinfo, SelectorStatement::kRelease, std::nullopt);
}

ACT_SQL_FUNCTION(act_prioritize) {
  pg::RequirePrimary("act.prioritize");
  pg::RequireArgument(fcinfo, 1, "priority");
  return pg::UpdateCount(fcinfo, SelectorStatement::kPrioritize, std::pair<Oid, Datum>(INT4OID, PG_GETARG_DATUM(1)));
}

ACT_SQL_FUNCTION(act_query_streams) {
  const core::StreamSelector selector = pg::ReadSelector(fcinfo, core::SelectorUse::kQueryStreams);
  std::optional<int64> limit;
  if (!PG_ARGISNULL(2)) {
    const int32 max_streams = PG_GETARG_INT32(2);
    if (max_streams < 0)
      throw core::ValidationError("max_streams must be 0 (no limit) or more, not " + std::to_string(max_streams));
    if (max_streams > 0) limit = max_streams;
  }
  ReturnSetInfo* result = pg::BeginMaterializedResult(fcinfo);
  pg::SpiSession spi;
  const SelectorStatement statement = PG_ARGISNULL(1) ? SelectorStatement::kQueryStreams : SelectorStatement::kQueryStreamsAfter;
  pg::Run(statement, selector, TEXTOID, PG_ARGISNULL(1) ? Datum(0) : PG_GETARG_DATUM(1),
          PG_ARGISNULL(1), limit, SPI_OK_SELECT);
  pg::EmitAllRows(result);
  spi.Finish();
  return Datum(0);
}
