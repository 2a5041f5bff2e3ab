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

}  // namespace act::pg
