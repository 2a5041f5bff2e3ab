#pragma once
// Removal records (docs/verifiable-log.md, "Removal records"). act.truncate
// deletes events whose entries stay in the log's tree; each call that deletes
// any writes one record: an event of the reserved stream kRecordStream whose
// data states how many entries it removed and a digest of them (so the
// record is hashed and sealed like every event), and a row of
// act.log_removals listing their positions. The row can be edited by whoever
// owns the database; the digest in the sealed event cannot, so a verifier
// recomputes it from the listed positions' entries.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "act/core/event_hash.hpp"

namespace act::core::removal {

// The stream of the records and their event name; act.truncate refuses the
// stream as a target, and a tombstone as its last event closes it to commits.
inline constexpr std::string_view kRecordStream = "__truncations__";
inline constexpr std::string_view kRecordEvent = "__tombstone__";

// SHA-256 over the removed entries in position order, each as its position
// (8 bytes, big-endian), its event id (8 bytes, big-endian) and its entry
// data (the event's 32-byte hash).
class Digest {
 public:
  Digest();
  Digest(Digest&&) noexcept;
  Digest& operator=(Digest&&) noexcept;
  ~Digest();
  void Add(std::uint64_t position, std::int64_t id, const Hash& entry);
  Hash Finish();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

// Positions [begin, end).
struct Run {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  friend bool operator==(const Run&, const Run&) = default;
};

// Increasing positions as the fewest runs.
std::vector<Run> RunsOf(std::span<const std::uint64_t> increasing);
std::uint64_t CountOf(std::span<const Run> runs);
// The text of an int8multirange as Postgres writes it: "{[0,3),[5,6)}", "{}".
std::string FormatMultirange(std::span<const Run> runs);
// That text back: runs non-empty, increasing and apart, as Postgres
// normalizes them. ValidationError naming `what` otherwise.
std::vector<Run> ParseMultirange(std::string_view text, std::string_view what);

// What a record's event data states.
struct Statement {
  std::uint64_t removed = 0;
  Hash digest{};
  std::uint64_t first_position = 0;
  std::uint64_t last_position = 0;
  bool before_upgrade = false;  // written by the upgrade from 0.2 for what was missing then
};
// {"removed", "digest" (lower-case hex), "first_position", "last_position"
// [, "before_upgrade": true]}.
std::string FormatStatement(const Statement& statement);
// Strict: exactly those keys, of those types. ValidationError otherwise.
Statement ParseStatement(std::string_view json);

}  // namespace act::core::removal
