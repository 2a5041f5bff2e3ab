#include "act/sql.hpp"

#include <charconv>
#include <sstream>
#include <stdexcept>

#include "db/session.hpp"
#include "sql_queue.hpp"

namespace act {

SqlParam::SqlParam(double value) {
  std::ostringstream text;
  text.precision(17);  // round-trips every double
  text << value;
  text_ = text.str();
}

const std::string& SqlRow::text(std::size_t column) const {
  const auto& cell = cells_.at(column);
  if (!cell) throw std::invalid_argument("column " + std::to_string(column) + " is NULL");
  return *cell;
}

std::int64_t SqlRow::int64(std::size_t column) const {
  const std::string& cell = text(column);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
  if (error != std::errc() || end != cell.data() + cell.size())
    throw std::invalid_argument("column " + std::to_string(column) + " is not an integer: " + cell);
  return value;
}

SqlResult Sql::exec(std::string_view sql, std::initializer_list<SqlParam> params) {
  return exec(sql, std::vector<SqlParam>(params));
}

SqlResult Sql::exec(std::string_view sql, const std::vector<SqlParam>& params) {
  db::Params values;
  for (const SqlParam& param : params) values.raw(param.text());
  if (queue_) return SqlResult(queue_->queue(sql, values));
  SqlRows rows;
  session_.exec(sql, values, [&](const db::Row& row) { rows.push_back(sql_row_of(row)); });
  return SqlResult(std::move(rows));
}

}  // namespace act
