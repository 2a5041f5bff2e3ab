#pragma once
// One result row, read by column position. Wraps the driver's row so code
// above the db layer never touches libpqxx.
#include <cstdint>
#include <string>
#include <string_view>

namespace pqxx {
class row;
}

namespace act::db {

class Row {
 public:
  explicit Row(const pqxx::row& row) noexcept : row_(&row) {}
  int size() const;
  bool is_null(int column) const;
  std::string_view text(int column) const;
  std::int64_t int64(int column) const;
  std::int32_t int32(int column) const;
  bool boolean(int column) const;
  double float64(int column) const;
  std::string bytes(int column) const;  // a bytea column's bytes

 private:
  const pqxx::row* row_;
};

}  // namespace act::db
