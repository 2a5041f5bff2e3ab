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
#include <memory>
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

class SqlQueue;

namespace detail {
// A pipelined statement's rows, filled when first read.
struct PendingRows {
  SqlQueue* queue = nullptr;  // none: the queue has finished without it being read
  std::size_t ticket = 0;
  std::optional<SqlRows> rows;
};
}  // namespace detail

// What exec() returns: its rows. In a projection's per-event handlers the
// statements are pipelined: a result nobody looks at costs no round trip of
// its own, and looking at one (or a later statement that is not pipelined)
// waits for it. A pipelined statement's failure surfaces when it is waited
// for, at the latest before the projection acknowledges, and fails the event
// whose handler sent it. Read a result while its handler runs.
class SqlResult {
 public:
  explicit SqlResult(SqlRows rows) : pending_(std::make_shared<detail::PendingRows>()) { pending_->rows = std::move(rows); }
  explicit SqlResult(std::shared_ptr<detail::PendingRows> pending) noexcept : pending_(std::move(pending)) {}

  const SqlRows& rows() const;
  operator const SqlRows&() const { return rows(); }  // NOLINT: reads like the SqlRows it used to be
  SqlRows::const_iterator begin() const { return rows().begin(); }
  SqlRows::const_iterator end() const { return rows().end(); }
  std::size_t size() const { return rows().size(); }
  bool empty() const { return rows().empty(); }
  const SqlRow& front() const { return rows().front(); }
  const SqlRow& operator[](std::size_t row) const { return rows()[row]; }
  const SqlRow& at(std::size_t row) const { return rows().at(row); }

 private:
  std::shared_ptr<detail::PendingRows> pending_;
};

class Sql {
 public:
  explicit Sql(db::Session& session) noexcept : session_(session) {}
  // Statements go through queue (a projection's per-event handlers).
  Sql(db::Session& session, SqlQueue& queue) noexcept : session_(session), queue_(&queue) {}
  Sql(const Sql&) = delete;
  Sql& operator=(const Sql&) = delete;

  // One statement with $1, $2, ... parameters. A failure throws act::StoreError
  // (act::ValidationError for bad input) and dooms the transaction: the
  // library rolls it back.
  SqlResult exec(std::string_view sql, std::initializer_list<SqlParam> params = {});
  SqlResult exec(std::string_view sql, const std::vector<SqlParam>& params);

 private:
  db::Session& session_;
  SqlQueue* queue_ = nullptr;
};

}  // namespace act
