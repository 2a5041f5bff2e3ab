#pragma once
// Reading jsonb arguments without converting them to text first.
#include <cstddef>
#include <string_view>

#include "act/core/validation.hpp"
#include "error_bridge.hpp"

namespace act::pg {

core::JsonKind KindOf(const JsonbValue& value);
core::JsonKind RootKind(Jsonb* jsonb);

// Finds `key` in an object container; returns false when absent.
bool FindKey(JsonbContainer* object, const char* key, JsonbValue* out);

// Finds the first key of an object container that is none of `known`;
// returns false when every key is known.
bool FindUnknownKey(JsonbContainer* object, const char* const* known, std::size_t known_count, JsonbValue* out);

// Copies a container value into a standalone jsonb.
Jsonb* ToJsonb(JsonbValue* value);

// The canonical text of a jsonb value: what hashing and `::text` see.
std::string_view CanonicalText(Jsonb* jsonb);

// Text of a jbvString value (not NUL-terminated).
inline std::string_view StringOf(const JsonbValue& value) {
  return {value.val.string.val, static_cast<std::size_t>(value.val.string.len)};
}

// A detoasted text argument as a view (valid for the call).
std::string_view TextArg(FunctionCallInfo fcinfo, int index);
Jsonb* JsonbArg(FunctionCallInfo fcinfo, int index);

// The uncompressed size of a non-NULL argument, read without detoasting it.
std::size_t ArgumentBytes(FunctionCallInfo fcinfo, int index);

}  // namespace act::pg
