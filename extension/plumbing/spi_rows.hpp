#pragma once
// Reading SPI_tuptable rows into C++ values (through the error bridge).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

// Column numbers are 1-based, as in SPI.
std::optional<int64> RowInt64(uint64 row, int column);
std::optional<int32> RowInt32(uint64 row, int column);
std::optional<std::string_view> RowText(uint64 row, int column);  // valid until SPI_finish
std::optional<std::vector<std::string>> RowTextArray(uint64 row, int column);
inline uint64 RowCount() { return SPI_processed; }

// Copies the current SPI result rows into a materialized SRF result.
void EmitAllRows(ReturnSetInfo* result);
ReturnSetInfo* BeginMaterializedResult(FunctionCallInfo fcinfo);

}  // namespace act::pg
