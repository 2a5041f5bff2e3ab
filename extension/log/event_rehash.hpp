#pragma once
// An event's hash recomputed from its stored row: SHA-256(prev || encoding
// of the row, version 2 when it has tags), the bytes act.commit and act.event_hash hash
// (docs/hash-chain.md). The data and meta text is rendered from the stored
// jsonb straight into the preimage (JsonbTextRenderer), and the buffers and
// the digest context are reused from one event to the next: keep one
// rehasher for a whole scan.
//
//   EventRows rows(EventRows::IdRange{first, last});
//   EventRehasher rehasher;
//   EventRow row;
//   while (rows.Next(row)) {
//     const core::Hash hash = rehasher.Compute(prev, row);  // prev: the stream's previous hash
//     ...
//   }
#include <string_view>
#include <vector>

#include "act/core/event_hash.hpp"
#include "event_rows.hpp"
#include "jsonb_text.hpp"

namespace act::pg {

class EventRehasher {
 public:
  // What the hash of `row` is when the event before it in its stream has the
  // hash `prev`. Throws ValidationError (22008) for an infinite `created`, as
  // act.event_hash does, and std::runtime_error for a damaged jsonb value.
  core::Hash Compute(const core::Hash& prev, const EventRow& row);

 private:
  core::Preimage preimage_;
  core::EventHasher hasher_;
  JsonbTextRenderer renderer_;
  std::vector<std::string_view> tag_views_;
};

}  // namespace act::pg
