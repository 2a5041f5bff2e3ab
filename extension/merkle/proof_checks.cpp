// act.verify_inclusion and act.verify_consistency: RFC 9162 proof checks
// (core's, the same actctl runs offline) over arguments alone. They read no
// table, so a database can check proofs of a log it does not hold, and a
// client can check in SQL what act.prove_inclusion / act.prove_consistency
// handed out against a root it got from a checkpoint it verified.
//
// A statement about no tree (a hash of another length, a negative size, an
// index at or beyond the size, an old size beyond the new one) is an error,
// as in every other function of the log; a proof that does not hold,
// whatever is wrong with it (its length included), is false.
#include <cstring>
#include <string>

#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"
#include "arrays.hpp"

using namespace act;
namespace merkle = core::merkle;

namespace {

// Not STRICT in SQL, so that a NULL argument is an error naming it, not NULL.
void RequireArguments(FunctionCallInfo fcinfo, std::initializer_list<const char*> names) {
  int arg = 0;
  for (const char* name : names) {
    if (PG_ARGISNULL(arg))
      throw core::ValidationError(std::string(name) + " must not be null", core::sqlstate::kNullValueNotAllowed);
    ++arg;
  }
}

core::Hash HashOf(Datum value, const std::string& name) {
  const std::string_view bytes = pg::VarlenaBytes(value);
  core::Hash hash;
  if (bytes.size() != hash.size())
    throw core::ValidationError(name + " must be 32 bytes (a SHA-256 hash), not " + std::to_string(bytes.size()));
  std::memcpy(hash.data(), bytes.data(), hash.size());
  return hash;
}

std::uint64_t SizeOf(int64 value, const char* name) {
  if (value < 0) throw core::ValidationError(std::string(name) + " must not be negative, not " + std::to_string(value));
  return static_cast<std::uint64_t>(value);
}

merkle::Path PathOf(Datum value) {
  ArrayType* array = pg::Guard([value] { return DatumGetArrayTypeP(value); });
  // A two-dimensional array would flatten into a path nobody wrote.
  if (ARR_NDIM(array) > 1) throw core::ValidationError("path must be a one-dimensional array of hashes");
  Datum* elements = nullptr;
  bool* nulls = nullptr;
  int count = 0;
  pg::Guard([array, &elements, &nulls, &count] {
    deconstruct_array(array, BYTEAOID, -1, false, TYPALIGN_INT, &elements, &nulls, &count);
  });
  merkle::Path path;
  path.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const std::string element = "path[" + std::to_string(i + 1) + "]";
    if (nulls[i]) throw core::ValidationError(element + " must not be null", core::sqlstate::kNullValueNotAllowed);
    path.push_back(HashOf(elements[i], element));
  }
  return path;
}

}  // namespace

ACT_SQL_FUNCTION(act_verify_inclusion) {
  RequireArguments(fcinfo, {"leaf_hash", "leaf_index", "tree_size", "path", "root"});
  const core::Hash leaf = HashOf(PG_GETARG_DATUM(0), "leaf_hash");
  const int64 index = PG_GETARG_INT64(1);
  const std::uint64_t size = SizeOf(PG_GETARG_INT64(2), "tree_size");
  if (index < 0 || static_cast<std::uint64_t>(index) >= size)
    throw core::ValidationError("leaf_index " + std::to_string(index) + " is not in a tree of " + std::to_string(size) +
                                " entries");
  const merkle::Path path = PathOf(PG_GETARG_DATUM(3));
  const core::Hash root = HashOf(PG_GETARG_DATUM(4), "root");
  PG_RETURN_BOOL(merkle::VerifyInclusion(leaf, static_cast<std::uint64_t>(index), size, path, root));
}

ACT_SQL_FUNCTION(act_verify_consistency) {
  RequireArguments(fcinfo, {"old_size", "old_root", "new_size", "new_root", "path"});
  const std::uint64_t old_size = SizeOf(PG_GETARG_INT64(0), "old_size");
  const core::Hash old_root = HashOf(PG_GETARG_DATUM(1), "old_root");
  const std::uint64_t new_size = SizeOf(PG_GETARG_INT64(2), "new_size");
  const core::Hash new_root = HashOf(PG_GETARG_DATUM(3), "new_root");
  if (old_size > new_size)
    throw core::ValidationError("old_size " + std::to_string(old_size) + " is larger than new_size " +
                                std::to_string(new_size));
  const merkle::Path path = PathOf(PG_GETARG_DATUM(4));
  PG_RETURN_BOOL(merkle::VerifyConsistency(old_size, old_root, new_size, new_root, path));
}
