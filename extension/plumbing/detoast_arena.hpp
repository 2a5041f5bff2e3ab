#pragma once
// Values read out of TOAST (compressed, or stored out of line) into memory
// of the reader's own, freed row by row: a long walk over a table must not
// keep every row's copy until the statement ends. Short inline values are
// read where they are, in the table's buffer.
//
//   DetoastArena arena;
//   while (scan.Next()) { arena.Reset(); std::string_view bytes = arena.Bytes(value); ... }
#include <string_view>

#include "error_bridge.hpp"

namespace act::pg {

class DetoastArena {
 public:
  DetoastArena();
  ~DetoastArena();
  DetoastArena(const DetoastArena&) = delete;
  DetoastArena& operator=(const DetoastArena&) = delete;

  // Frees what the values read since the last Reset() took.
  void Reset();
  // A varlena value with its 4-byte header, as an array's macros read it:
  // the Datum itself when it is one, else a copy in the arena.
  varlena* Plain(Datum value);
  // The bytes of a text or bytea value (a short header is read where it is).
  std::string_view Bytes(Datum value);

 private:
  varlena* Copy(varlena* bytes);

  MemoryContext context_ = nullptr;
  bool used_ = false;
};

}  // namespace act::pg
