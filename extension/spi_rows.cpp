#include "spi_rows.hpp"

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

std::optional<std::string_view> RowText(uint64 row, int column) {
  bool is_null = false;
  const Datum value = RowDatum(row, column, &is_null);
  if (is_null) return std::nullopt;
  text* detoasted = Guard([value] { return DatumGetTextPP(value); });
  return std::string_view(VARDATA_ANY(detoasted), VARSIZE_ANY_EXHDR(detoasted));
}

std::optional<std::vector<std::string>> RowTextArray(uint64 row, int column) {
  bool is_null = false;
  const Datum value = RowDatum(row, column, &is_null);
  if (is_null) return std::nullopt;
  Datum* elements = nullptr;
  bool* nulls = nullptr;
  int count = 0;
  Datum* const* element_out = &elements;
  Guard([value, element_out, &nulls, &count] {
    deconstruct_array(DatumGetArrayTypeP(value), TEXTOID, -1, false, TYPALIGN_INT, const_cast<Datum**>(element_out),
                      &nulls, &count);
  });
  std::vector<std::string> strings;
  strings.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    if (nulls[i]) continue;
    text* item = Guard([elements, i] { return DatumGetTextPP(elements[i]); });
    strings.emplace_back(VARDATA_ANY(item), VARSIZE_ANY_EXHDR(item));
  }
  return strings;
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
