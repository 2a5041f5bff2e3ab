#include "event_rehash.hpp"

#include "timestamps.hpp"

namespace act::pg {

core::Hash EventRehasher::Compute(const core::Hash& prev, const EventRow& row) {
  const std::int64_t created = EncodedCreated(row.created);  // first: a failing call has hashed nothing
  preimage_.Start(prev, row.stream, row.version, row.name);
  renderer_.Append(row.data, preimage_.BeginField());
  preimage_.EndField();
  renderer_.Append(row.meta, preimage_.BeginField());
  preimage_.EndField();
  preimage_.Finish(created);
  return hasher_.Digest(preimage_);
}

}  // namespace act::pg
