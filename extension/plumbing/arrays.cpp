#include "arrays.hpp"

namespace act::pg {

Datum MakeArray(const std::vector<Datum>& values, const bool* nulls, Oid element_type) {
  const Datum* data = values.data();
  const int count = static_cast<int>(values.size());
  return Guard([data, nulls, count, element_type] {
    int16 length;
    bool by_value;
    char align;
    get_typlenbyvalalign(element_type, &length, &by_value, &align);
    int dims[1] = {count};
    int lower_bounds[1] = {1};
    ArrayType* array = construct_md_array(const_cast<Datum*>(data), const_cast<bool*>(nulls), 1, dims, lower_bounds,
                                          element_type, length, by_value, align);
    return PointerGetDatum(array);
  });
}

Datum MakeTextArray(const std::vector<std::string>& items) {
  std::vector<Datum> texts;
  texts.reserve(items.size());
  for (const std::string& item : items) texts.push_back(MakeText(item));
  return MakeArray(texts, nullptr, TEXTOID);
}

Datum MakeText(std::string_view text) {
  const char* data = text.data();
  const int length = static_cast<int>(text.size());
  return Guard([data, length] { return PointerGetDatum(cstring_to_text_with_len(data, length)); });
}

Datum MakeBytea(const void* bytes, std::size_t length) {
  return Guard([bytes, length] {
    bytea* value = static_cast<bytea*>(palloc(VARHDRSZ + length));
    SET_VARSIZE(value, VARHDRSZ + length);
    memcpy(VARDATA(value), bytes, length);
    return PointerGetDatum(value);
  });
}

std::string_view VarlenaBytes(Datum value) {
  const varlena* detoasted = Guard([value] { return pg_detoast_datum_packed(reinterpret_cast<varlena*>(value)); });
  return std::string_view(VARDATA_ANY(detoasted), VARSIZE_ANY_EXHDR(detoasted));
}

std::vector<std::string> TextArrayElements(Datum value) {
  Datum* elements = nullptr;
  bool* nulls = nullptr;
  int count = 0;
  Guard([value, &elements, &nulls, &count] {
    deconstruct_array(DatumGetArrayTypeP(value), TEXTOID, -1, false, TYPALIGN_INT, &elements, &nulls, &count);
  });
  std::vector<std::string> strings;
  strings.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
    if (!nulls[i]) strings.emplace_back(VarlenaBytes(elements[i]));
  return strings;
}

// ARR_DATA_PTR multiplies the array's int ndim by a size_t inside Postgres's
// macro, which -Wsign-conversion flags at our call: off for this one use.
namespace {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
const char* ArrayData(const ArrayType* array) { return ARR_DATA_PTR(array); }
#pragma GCC diagnostic pop
}  // namespace

void Int64ArrayElementsOf(const ArrayType* array, std::vector<int64>& into) {
  // Elements without a NULL lie one after another, 8 bytes each: copied at
  // once, where deconstruct_array would allocate a Datum for each.
  if (ARR_ELEMTYPE(array) == INT8OID && ARR_NDIM(array) <= 1 && !ARR_HASNULL(array)) {
    const int count = ArrayGetNItems(ARR_NDIM(array), ARR_DIMS(array));
    into.resize(static_cast<std::size_t>(count));
    if (count > 0) memcpy(into.data(), ArrayData(array), sizeof(int64) * static_cast<std::size_t>(count));
    return;
  }
  Datum* elements = nullptr;
  bool* nulls = nullptr;
  int count = 0;
  Guard([array, &elements, &nulls, &count] {
    deconstruct_array(const_cast<ArrayType*>(array), INT8OID, 8, true, TYPALIGN_DOUBLE, &elements, &nulls, &count);
    for (int i = 0; i < count; ++i)
      if (nulls[i]) elog(ERROR, "pg_act: unexpected NULL in a bigint array");
  });
  into.resize(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) into[static_cast<std::size_t>(i)] = DatumGetInt64(elements[i]);
}

std::vector<int64> Int64ArrayElements(Datum value) {
  const ArrayType* array = Guard([value] { return DatumGetArrayTypeP(value); });
  std::vector<int64> numbers;
  Int64ArrayElementsOf(array, numbers);
  return numbers;
}

}  // namespace act::pg
