#include "boundary_sql.hpp"

#include <string>
#include <unordered_map>

#include "act/core/errors.hpp"
#include "arrays.hpp"
#include "hosted_partition.hpp"
#include "spi.hpp"

namespace act::pg {
namespace {

const Oid kArgTypes[5] = {TEXTARRAYOID, TEXTARRAYOID, INT8OID, INT8OID, INT8OID};

// The text depends only on the shape of the query (how many items, tags and
// types), so a backend sees few; past kMaxKeptPlans a shape is planned per call.
constexpr std::size_t kMaxKeptPlans = 256;

SPIPlanPtr PlanFor(const std::string& text) {
  static std::unordered_map<std::string, SPIPlanPtr> plans;
  if (auto found = plans.find(text); found != plans.end()) return found->second;
  if (plans.size() >= kMaxKeptPlans) {
    const std::string* text_ptr = &text;
    return Guard([text_ptr] { return SPI_prepare(text_ptr->c_str(), 5, const_cast<Oid*>(kArgTypes)); });
  }
  SPIPlanPtr plan = PrepareKept(text, 5, kArgTypes);
  plans.emplace(text, plan);
  return plan;
}

}  // namespace

void RequireHostedBoundary(const core::Query& query, const std::string& path) {
  if (!Partitioned()) return;
  for (std::size_t i = 0; i < query.items.size(); ++i) {
    const std::string item = path + ".items[" + std::to_string(i) + "]";
    if (query.items[i].tags.empty())
      throw core::ValidationError(item + " has no tag: in partitioned mode every item needs one, whose partition it reads");
    RequireHostedTag(query.items[i].tags.front(), item);
  }
}

BoundStatement BindBoundaryQuery(const core::QuerySql& sql, int64 after, int64 at_most, std::optional<int64> limit) {
  BoundStatement bound;
  bound.plan = PlanFor(sql.text);
  bound.values[0] = MakeTextArray(sql.tags);
  bound.values[1] = MakeTextArray(sql.types);
  bound.values[2] = Int64GetDatum(after);
  bound.values[3] = Int64GetDatum(at_most);
  if (limit) {
    bound.values[4] = Int64GetDatum(*limit);
  } else {
    bound.nulls[4] = 'n';
  }
  return bound;
}

}  // namespace act::pg
