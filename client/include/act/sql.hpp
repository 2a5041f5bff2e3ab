#pragma once
// Application SQL inside a transaction the library opened: a projection's
// handlers write their read model through it, on the same connection and in
// the same transaction as the acknowledgement of the events they applied.
//
//   sql.exec("INSERT INTO open_tickets (assignee, count) VALUES ($1, 1) "
//            "ON CONFLICT (assignee) DO UPDATE SET count = open_tickets.count + 1", {assignee});
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace act {

namespace db {
class Session;
}

// One $n parameter in the server's text form; nullptr / an empty optional is NULL.
class SqlParam {
 public:
  SqlParam(std::nullptr_t) noexcept {}
  SqlParam(std::string_view text) : text_(std::string(text)) {}
  SqlParam(const char* text) : text_(std::string(text)) {}
  SqlParam(const std::string& text) : text_(text) {}
  SqlParam(bool value) : text_(value ? "true" : "false") {}
  template <std::integral Integer>
  SqlParam(Integer value) : text_(std::to_string(value)) {}
  SqlParam(double value);
  SqlParam(const nlohmann::json& value) : text_(value.dump()) {}
  template <class T>
  SqlParam(const std::optional<T>& value) : SqlParam(value ? SqlParam(*value) : SqlParam(nullptr)) {}

  const std::optional<std::string>& text() const noexcept { return text_; }

 private:
  std::optional<std::string> text_;
};

// A result row, by column position, in text form.
class SqlRow {
 public:
  explicit SqlRow(std::vector<std::optional<std::string>> cells) : cells_(std::move(cells)) {}
  std::size_t size() const noexcept { return cells_.size(); }
  bool is_null(std::size_t column) const { return !cells_.at(column).has_value(); }
  // Throws std::out_of_range for a missing column, std::invalid_argument for NULL or non-numbers.
  const std::string& text(std::size_t column) const;
  std::int64_t int64(std::size_t column) const;

 private:
  std::vector<std::optional<std::string>> cells_;
};

using SqlRows = std::vector<SqlRow>;

class Sql {
 public:
  explicit Sql(db::Session& session) noexcept : session_(session) {}
  Sql(const Sql&) = delete;
  Sql& operator=(const Sql&) = delete;

  // One statement with $1, $2, ... parameters. A failure throws act::StoreError
  // (act::ValidationError for bad input) and dooms the transaction: the
  // library rolls it back.
  SqlRows exec(std::string_view sql, std::initializer_list<SqlParam> params = {});
  SqlRows exec(std::string_view sql, const std::vector<SqlParam>& params);

 private:
  db::Session& session_;
};

}  // namespace act
