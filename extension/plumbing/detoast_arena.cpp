#include "detoast_arena.hpp"

extern "C" {
#include "access/detoast.h"
}

namespace act::pg {

DetoastArena::DetoastArena() {
  context_ = Guard([] { return AllocSetContextCreate(CurrentMemoryContext, "pg_act detoasted", ALLOCSET_SMALL_SIZES); });
}

DetoastArena::~DetoastArena() {
  MemoryContext context = context_;
  try {
    Guard([context] { MemoryContextDelete(context); });
  } catch (...) {
    // Only during an abort already under way, which frees it.
  }
}

void DetoastArena::Reset() {
  if (!used_) return;
  MemoryContext context = context_;
  Guard([context] { MemoryContextReset(context); });
  used_ = false;
}

varlena* DetoastArena::Plain(Datum value) {
  auto* bytes = reinterpret_cast<varlena*>(DatumGetPointer(value));
  // A short inline value has a 1-byte header, which an array's macros do not read.
  return VARATT_IS_EXTENDED(bytes) ? Copy(bytes) : bytes;
}

std::string_view DetoastArena::Bytes(Datum value) {
  auto* bytes = reinterpret_cast<varlena*>(DatumGetPointer(value));
  if (VARATT_IS_EXTERNAL(bytes) || VARATT_IS_COMPRESSED(bytes)) bytes = Copy(bytes);
  return {VARDATA_ANY(bytes), static_cast<std::size_t>(VARSIZE_ANY_EXHDR(bytes))};
}

varlena* DetoastArena::Copy(varlena* bytes) {
  MemoryContext context = context_;
  used_ = true;
  return Guard([bytes, context] {
    const MemoryContext caller = MemoryContextSwitchTo(context);
    varlena* plain = detoast_attr(bytes);
    MemoryContextSwitchTo(caller);
    return plain;
  });
}

}  // namespace act::pg
