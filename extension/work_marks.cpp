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
    "SELECT s.stream, s.source, s.names, 1::bigint FROM act.subscription_rows s WHERE s.source = $1 "
    "UNION ALL "
    "SELECT s.stream, s.source, s.names, 2::bigint FROM act.subscription_rows s "
    "WHERE s.source IS NULL OR s.source ~ '[][^$.*+?(){}|\\\\]'",
    1, kCandidateArgTypes);

const Oid kRaiseArgTypes[] = {TEXTARRAYOID, INT8ARRAYOID};
SavedPlan g_raise_plan(
    "UPDATE act.subscription_rows s SET correlated_at = u.mark "
    "FROM unnest($1, $2) AS u(stream, mark) "
    "WHERE s.stream = u.stream AND (s.correlated_at IS NULL OR s.correlated_at < u.mark)",
    2, kRaiseArgTypes);

// Wide rows match every commit: their marks go to this backend's own row in
// act.wide_marks, so no two backends ever wait on the same row.
const Oid kWideArgTypes[] = {TEXTARRAYOID, INT8ARRAYOID, INT4OID};
SavedPlan g_wide_plan(
    "INSERT INTO act.wide_marks AS w (stream, backend, mark) "
    "SELECT u.stream, $3, u.mark FROM unnest($1, $2) AS u(stream, mark) "
    "ON CONFLICT (stream, backend) DO UPDATE SET mark = excluded.mark WHERE w.mark < excluded.mark",
    3, kWideArgTypes);

}  // namespace

void MarkSubscriptions(Datum stream_datum, std::string_view stream, const std::vector<core::EventRef>& events) {
  Datum candidate_args[1] = {stream_datum};
  Execute(g_candidates_plan.Get(), candidate_args, nullptr, false, 0, SPI_OK_SELECT);
  std::vector<Datum> literal_streams, literal_marks, wide_streams, wide_marks;
  for (uint64 row = 0; row < RowCount(); ++row) {
    const std::optional<std::string_view> source = RowText(row, 2);
    const bool wide_branch = RowInt64(row, 4).value_or(1) == 2;
    if (!wide_branch && source && core::IsPattern(*source)) continue;  // the wide branch matches it
    if (wide_branch && source && !PatternMatches(*source, stream)) continue;
    const std::optional<std::int64_t> mark = core::WorkMark(RowTextArray(row, 3), events);
    if (!mark) continue;
    (wide_branch ? wide_streams : literal_streams).push_back(MakeText(*RowText(row, 1)));
    (wide_branch ? wide_marks : literal_marks).push_back(Int64GetDatum(*mark));
  }
  // Literal rows: only commits to this same stream touch them.
  if (!literal_streams.empty()) {
    Datum args[2] = {MakeArray(literal_streams, nullptr, TEXTOID), MakeArray(literal_marks, nullptr, INT8OID)};
    Execute(g_raise_plan.Get(), args, nullptr, false, 0, SPI_OK_UPDATE);
  }
  if (!wide_streams.empty()) {
    Datum args[3] = {MakeArray(wide_streams, nullptr, TEXTOID), MakeArray(wide_marks, nullptr, INT8OID),
                     Int32GetDatum(MyBackendId)};
    Execute(g_wide_plan.Get(), args, nullptr, false, 0, SPI_OK_INSERT);
  }
}

}  // namespace act::pg
