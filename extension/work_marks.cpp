#include "work_marks.hpp"

#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "regex_cache.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg {
namespace {

// Literal sources by index lookup; source-less and pattern rows (few) through
// a partial index whose predicate is core::IsPattern in SQL.
const Oid kCandidateArgTypes[] = {TEXTOID};
SavedPlan g_candidates_plan(
    "SELECT s.stream, s.source, s.names, 1::bigint FROM act.subscriptions s WHERE s.source = $1 "
    "UNION ALL "
    "SELECT s.stream, s.source, s.names, 2::bigint FROM act.subscriptions s "
    "WHERE s.source IS NULL OR s.source ~ '[][^$.*+?(){}|\\\\]'",
    1, kCandidateArgTypes);

const Oid kRaiseArgTypes[] = {TEXTARRAYOID, INT8ARRAYOID};
SavedPlan g_raise_plan(
    "UPDATE act.subscriptions s SET correlated_at = u.mark "
    "FROM unnest($1, $2) AS u(stream, mark) "
    "WHERE s.stream = u.stream AND (s.correlated_at IS NULL OR s.correlated_at < u.mark)",
    2, kRaiseArgTypes);

}  // namespace

void MarkSubscriptions(Datum stream_datum, std::string_view stream, const std::vector<core::EventRef>& events) {
  Datum candidate_args[1] = {stream_datum};
  Execute(g_candidates_plan.Get(), candidate_args, nullptr, false, 0, SPI_OK_SELECT);
  std::vector<Datum> streams, marks;
  for (uint64 row = 0; row < RowCount(); ++row) {
    const std::optional<std::string_view> source = RowText(row, 2);
    const bool wide_branch = RowInt64(row, 4).value_or(1) == 2;
    if (!wide_branch && source && core::IsPattern(*source)) continue;  // the wide branch matches it
    if (wide_branch && source && !PatternMatches(*source, stream)) continue;
    const std::optional<std::int64_t> mark = core::WorkMark(RowTextArray(row, 3), events);
    if (!mark) continue;
    streams.push_back(MakeText(*RowText(row, 1)));
    marks.push_back(Int64GetDatum(*mark));
  }
  if (streams.empty()) return;
  Datum raise_args[2] = {MakeArray(streams, nullptr, TEXTOID), MakeArray(marks, nullptr, INT8OID)};
  Execute(g_raise_plan.Get(), raise_args, nullptr, false, 0, SPI_OK_UPDATE);
}

}  // namespace act::pg
