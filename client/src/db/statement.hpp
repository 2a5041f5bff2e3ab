#pragma once
#include <string_view>

namespace act::db {

// A prepared statement: prepared on a connection the first time it runs there.
struct Statement {
  std::string_view name;
  std::string_view operation;  // the SQL function it calls, for error messages
  std::string_view sql;
};

}  // namespace act::db
