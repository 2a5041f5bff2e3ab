#include "spi_rows.hpp"

#include "arrays.hpp"

namespace act::pg {

namespace {
Datum RowDatum(uint64 row, int column, bool* is_null) {
  return Guard([row, column, is_null] {
    return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, column, is_null);
  });
}
}  // namespace

std::optional<int64> RowInt64(uint64 row, int column) {
  bool is_null = false;
  const Datum value = RowDatum(row, column, &is_null);
  if (is_null) return std::nullopt;
  return DatumGetInt64(value);
}

std::optional<int32> RowInt32(uint64 row, int column) {
  bool is_null = false;
  const Datum value = RowDatum(row, column, &is_null);
  if (is_null) return std::nullopt;
  return DatumGetInt32(value);
}

std::optional<std::string_view> RowText(uint64 row, int column) {
  bool is_null = false;
  const Datum value = RowDatum(row, column, &is_null);
  if (is_null) return std::nullopt;
  return VarlenaBytes(value);
}

std::optional<std::vector<std::string>> RowTextArray(uint64 row, int column) {
  bool is_null = false;
  const Datum value = RowDatum(row, column, &is_null);
  if (is_null) return std::nullopt;
  return TextArrayElements(value);
}

ReturnSetInfo* BeginMaterializedResult(FunctionCallInfo fcinfo) {
  return Guard([fcinfo] {
    InitMaterializedSRF(fcinfo, 0);
    return reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  });
}

void EmitAllRows(ReturnSetInfo* result) {
  Guard([result] {
    for (uint64 i = 0; i < SPI_processed; ++i) tuplestore_puttuple(result->setResult, SPI_tuptable->vals[i]);
  });
}

}  // namespace act::pg
