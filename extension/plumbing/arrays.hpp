#pragma once
// Datums to and from C++ values; one-dimensional SQL arrays (batches travel to
// SPI as arrays).
#include <string>
#include <string_view>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

// nulls may be null (no element is NULL); otherwise it has values.size() entries.
Datum MakeArray(const std::vector<Datum>& values, const bool* nulls, Oid element_type);

Datum MakeText(std::string_view text);
// A text[] of these strings, none NULL.
Datum MakeTextArray(const std::vector<std::string>& items);
Datum MakeBytea(const void* bytes, std::size_t length);

// The bytes of a text or bytea Datum, detoasted; valid as long as the Datum's memory.
std::string_view VarlenaBytes(Datum value);
// The non-NULL elements of a text[] Datum.
std::vector<std::string> TextArrayElements(Datum value);
// The elements of a bigint[] Datum (NULL elements are an error).
std::vector<int64> Int64ArrayElements(Datum value);
// The same of an array already detoasted, into `into` (its room reused).
void Int64ArrayElementsOf(const ArrayType* array, std::vector<int64>& into);

}  // namespace act::pg
