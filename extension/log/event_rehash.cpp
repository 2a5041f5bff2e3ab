#include "event_rehash.hpp"

#include "timestamps.hpp"

namespace act::pg {

core::Hash EventRehasher::Compute(const core::Hash& prev, const EventRow& row) {
  const std::int64_t created = EncodedCreated(row.created);  // first: a failing call has hashed nothing
  const bool tagged = !row.tags.empty();
  preimage_.Start(prev, row.stream, row.version, row.name,
                  tagged ? core::kTaggedEncodingVersion : core::kEncodingVersion);
  renderer_.Append(row.data, preimage_.BeginField());
  preimage_.EndField();
  renderer_.Append(row.meta, preimage_.BeginField());
  preimage_.EndField();
  if (tagged) {
    tag_views_.assign(row.tags.begin(), row.tags.end());
    preimage_.Tags(tag_views_);
  }
  preimage_.Finish(created);
  return hasher_.Digest(preimage_);
}

}  // namespace act::pg
