#include "react/row_coverage.hpp"

#include <algorithm>

namespace act::react {
namespace {

bool row_selects(const Subscription& row, const std::vector<std::string>& names) {
  if (!row.names) return true;  // every name
  return std::all_of(names.begin(), names.end(), [&](const std::string& name) {
    return std::find(row.names->begin(), row.names->end(), name) != row.names->end();
  });
}

}  // namespace

void RowCoverage::learn(Store& store, const Registry& registry, const std::vector<std::string>& targets) {
  for (const std::string& target : targets) {
    if (known(target)) continue;
    const std::vector<Subscription> rows = store.query_streams(StreamFilter::exactly(target), std::nullopt, 1);
    // No row (gone since the claim): nothing is learnt, the fetch reads as before.
    if (rows.empty() || rows.front().stream != target) continue;
    const bool covered = row_selects(rows.front(), registry.fetch_names(target));
    const std::lock_guard lock(mutex_);
    if (covers_.size() >= kRemembered) covers_.clear();
    covers_.insert_or_assign(target, covered);
  }
}

bool RowCoverage::covers(std::string_view target) const {
  const std::lock_guard lock(mutex_);
  const auto found = covers_.find(target);
  return found != covers_.end() && found->second;
}

bool RowCoverage::known(std::string_view target) const {
  const std::lock_guard lock(mutex_);
  return covers_.find(target) != covers_.end();
}

}  // namespace act::react
