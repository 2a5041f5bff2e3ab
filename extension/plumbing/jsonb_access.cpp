#include "jsonb_access.hpp"

extern "C" {
#include "access/detoast.h"
}

namespace act::pg {

core::JsonKind KindOf(const JsonbValue& value) {
  switch (value.type) {
    case jbvNull: return core::JsonKind::kNull;
    case jbvString: return core::JsonKind::kString;
    case jbvNumeric: return core::JsonKind::kNumber;
    case jbvBool: return core::JsonKind::kBool;
    case jbvObject: return core::JsonKind::kObject;
    case jbvArray: return core::JsonKind::kArray;
    case jbvBinary:
      return JsonContainerIsObject(value.val.binary.data) ? core::JsonKind::kObject : core::JsonKind::kArray;
    default: return core::JsonKind::kNull;
  }
}

core::JsonKind RootKind(Jsonb* jsonb) {
  if (JB_ROOT_IS_OBJECT(jsonb)) return core::JsonKind::kObject;
  if (!JB_ROOT_IS_SCALAR(jsonb)) return core::JsonKind::kArray;
  JsonbValue scalar;
  Guard([jsonb, &scalar] { JsonbExtractScalar(&jsonb->root, &scalar); });
  return KindOf(scalar);
}

bool FindKey(JsonbContainer* object, const char* key, JsonbValue* out) {
  return Guard([object, key, out] {
    return getKeyJsonValueFromContainer(object, key, static_cast<int>(strlen(key)), out) != nullptr;
  });
}

bool FindUnknownKey(JsonbContainer* object, const char* const* known, std::size_t known_count, JsonbValue* out) {
  return Guard([object, known, known_count, out] {
    JsonbIterator* iterator = JsonbIteratorInit(object);
    JsonbValue token;
    JsonbIteratorToken kind;
    while ((kind = JsonbIteratorNext(&iterator, &token, true)) != WJB_DONE) {
      if (kind != WJB_KEY) continue;
      bool listed = false;
      for (std::size_t i = 0; i < known_count && !listed; ++i)
        listed = strlen(known[i]) == static_cast<std::size_t>(token.val.string.len) &&
                 memcmp(known[i], token.val.string.val, static_cast<std::size_t>(token.val.string.len)) == 0;
      if (!listed) {
        *out = token;
        return true;
      }
    }
    return false;
  });
}

Jsonb* ToJsonb(JsonbValue* value) {
  return Guard([value] { return JsonbValueToJsonb(value); });
}

std::string_view CanonicalText(Jsonb* jsonb) {
  const char* text = Guard([jsonb] { return JsonbToCString(nullptr, &jsonb->root, static_cast<int>(VARSIZE(jsonb))); });
  return text;
}

std::string_view TextArg(FunctionCallInfo fcinfo, int index) {
  text* value = Guard([fcinfo, index] { return PG_GETARG_TEXT_PP(index); });
  return {VARDATA_ANY(value), static_cast<std::size_t>(VARSIZE_ANY_EXHDR(value))};
}

Jsonb* JsonbArg(FunctionCallInfo fcinfo, int index) {
  return Guard([fcinfo, index] { return PG_GETARG_JSONB_P(index); });
}

std::size_t ArgumentBytes(FunctionCallInfo fcinfo, int index) {
  const Datum value = PG_GETARG_DATUM(index);
  return Guard([value] { return toast_raw_datum_size(value); });
}

}  // namespace act::pg
