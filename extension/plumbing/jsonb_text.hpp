#pragma once
// The canonical text of a jsonb value (what `value::text` and JsonbToCString
// give, docs/hash-chain.md), rendered from the stored binary format straight
// into a caller's buffer: no iterator, no palloc, no text value of its own.
// act.verify hashes every event's data and meta through it, where
// JsonbToCString's per-value allocations and iterator cost more than the
// hashing.
//
// It follows Postgres 15's output byte for byte (test/sql/hash_chain.sql
// compares the two over many values): members in stored order, ", " and
// ": " separators, strings escaped as escape_json does, numbers as
// numeric_out writes them. It reads the bytes as they are in the tuple
// (unaligned when the datum has a short header) and checks every offset
// against the value's size: a damaged value is an error, never a read past it.
#include <cstdint>
#include <string_view>
#include <vector>

#include "act/core/byte_buffer.hpp"

namespace act::pg {

class JsonbTextRenderer {
 public:
  // `jsonb` holds a jsonb datum's bytes after its varlena header (its root
  // container), as stored: detoasted, but possibly unaligned. Throws
  // std::runtime_error when the bytes are not a well-formed jsonb.
  void Append(std::string_view jsonb, core::ByteBuffer& out);

 private:
  struct Level {
    const char* entries;     // the container's JEntry array
    const char* base;        // where its children's data starts
    std::uint32_t count;     // elements, or key/value pairs
    std::uint32_t next;      // the child to write next
    std::uint32_t key_at;    // offset of the next key (objects)
    std::uint32_t value_at;  // offset of the next element or value
    bool object;
    bool raw_scalar;  // the root of a scalar jsonb: no brackets
  };

  static Level Open(const char* container, std::uint32_t size, const char* end);

  std::vector<Level> levels_;  // the open containers; reused, and no recursion to bound the depth
};

}  // namespace act::pg
