#include "db/row.hpp"

#include <pqxx/binarystring>
#include <pqxx/row>

namespace act::db {

int Row::size() const { return static_cast<int>(row_->size()); }

bool Row::is_null(int column) const { return (*row_)[column].is_null(); }

std::string_view Row::text(int column) const {
  const pqxx::field field = (*row_)[column];
  return {field.c_str(), field.size()};
}

std::int64_t Row::int64(int column) const { return (*row_)[column].as<std::int64_t>(); }

std::int32_t Row::int32(int column) const { return (*row_)[column].as<std::int32_t>(); }

bool Row::boolean(int column) const { return (*row_)[column].as<bool>(); }

double Row::float64(int column) const { return (*row_)[column].as<double>(); }

std::string Row::bytes(int column) const { return pqxx::binarystring((*row_)[column]).str(); }

}  // namespace act::db
