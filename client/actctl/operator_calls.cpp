#include "operator_calls.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace actctl {

bool Changes(Operator op, const act::Subscription& row, const OperatorValues& values) {
  switch (op) {
    case Operator::kUnblock:
      return row.blocked;
    case Operator::kRelease:
      return row.leased_by.has_value();
    case Operator::kPrioritize:
      return row.priority != values.priority;
    case Operator::kReset:
    case Operator::kDefer:
      break;
  }
  return true;
}

std::vector<act::Subscription> RowsThatChange(act::Store& store, Operator op, const act::StreamFilter& selector,
                                              const OperatorValues& values) {
  std::vector<act::StreamFilter> filters;
  if (selector.streams) {
    for (const std::string& name : *selector.streams) filters.push_back(act::StreamFilter::exactly(name));
  } else {
    filters.push_back(selector);
  }
  std::vector<act::Subscription> rows;
  for (const act::StreamFilter& filter : filters)
    for (act::Subscription& row : store.query_streams(filter, std::nullopt, 0))
      if (Changes(op, row, values)) rows.push_back(std::move(row));
  return rows;
}

std::int32_t ApplyOperator(act::Store& store, Operator op, const act::StreamFilter& selector,
                           const OperatorValues& values) {
  switch (op) {
    case Operator::kUnblock:
      return store.unblock(selector);
    case Operator::kReset:
      return store.reset(selector);
    case Operator::kRelease:
      return store.release(selector);
    case Operator::kPrioritize:
      return store.prioritize(selector, values.priority);
    case Operator::kDefer:
      if (!values.until) throw std::invalid_argument("defer needs a time to defer until");
      return store.defer(selector, *values.until);
  }
  throw std::invalid_argument("unknown operator");
}

}  // namespace actctl
