#pragma once
// One-dimensional SQL arrays built from Datums (batches travel to SPI as arrays).
#include <string_view>
#include <vector>

#include "error_bridge.hpp"

namespace act::pg {

// nulls may be null (no element is NULL); otherwise it has values.size() entries.
Datum MakeArray(const std::vector<Datum>& values, const bool* nulls, Oid element_type);

Datum MakeText(std::string_view text);
Datum MakeBytea(const void* bytes, std::size_t length);

}  // namespace act::pg
