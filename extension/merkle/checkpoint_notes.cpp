#include "checkpoint_notes.hpp"

#include <cstring>
#include <string_view>
#include <vector>

#include "act/core/checkpoint.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "log_store.hpp"
#include "merkle/checkpoint_notes_sql.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

namespace act::pg::log {

namespace {

constexpr Oid kSizes[] = {INT8OID, INT8OID, INT8OID};
SavedPlan g_checkpoints(checkpoint_notes_sql::kCheckpoints, 3, kSizes, PlanMode::kGeneric);

struct StoredCheckpoint {
  int64 size = 0;
  std::string root;
  std::string note;
};

// The registered keys that parse; one act.register_log_key would not have
// taken (written to the table directly) is reported and checks nothing.
std::vector<core::VerifierKey> RegisteredKeys(const CheckpointReporter& report) {
  std::vector<core::VerifierKey> keys;
  for (const std::string& vkey : RegisteredVerifierKeys(ReadOn::kStatement)) {
    try {
      keys.push_back(core::ParseVerifierKey(vkey));
    } catch (const core::ValidationError& error) {
      report(std::nullopt, std::string("act.log_keys holds a key that does not parse: ") + error.what());
    }
  }
  return keys;
}

std::string_view Bytes(const core::Hash& hash) {
  return {reinterpret_cast<const char*>(hash.data()), hash.size()};
}

void CheckOne(const StoredCheckpoint& stored, const std::vector<core::VerifierKey>& keys, const RootAt& root_at,
              const CheckpointReporter& report) {
  const std::string at = "the checkpoint at size " + std::to_string(stored.size);
  const std::optional<core::Hash> tree_root = root_at(static_cast<std::uint64_t>(stored.size));
  if (tree_root && Bytes(*tree_root) != stored.root) report(stored.size, at + " states another root than the tree's");
  const bool signed_note = stored.note.find("\n\n") != std::string::npos;
  std::string text = stored.note;
  try {
    if (signed_note) text = core::ParseSignedNote(stored.note).text;
    const core::Checkpoint checkpoint = core::ParseCheckpoint(text);
    if (checkpoint.size != static_cast<std::uint64_t>(stored.size))
      report(stored.size, at + " has a note that states size " + std::to_string(checkpoint.size));
    else if (Bytes(checkpoint.root) != stored.root)
      report(stored.size, at + " has a note that states another root than its row");
    else if (tree_root && checkpoint.root != *tree_root)
      report(stored.size, at + " has a note that states another root than the tree's");
    if (!signed_note) return;
    const core::NoteCheck check = core::CheckNote(stored.note, keys);
    for (const core::VerifierKey& key : check.failed)
      report(stored.size, at + " carries a signature by " + key.name + " (a registered key) that does not verify");
  } catch (const core::ValidationError& error) {
    report(stored.size, at + " has a note that does not parse: " + error.what());
  }
}

}  // namespace

void VerifyCheckpoints(std::uint64_t begin, std::uint64_t end, std::uint64_t tree_size, const RootAt& root_at,
                       const CheckpointReporter& report) {
  const std::vector<core::VerifierKey> keys = RegisteredKeys(report);
  // Above the tree only when the check reaches its end; INT64_MAX asks for none.
  const auto above = static_cast<int64>(end == tree_size ? tree_size : INT64_MAX);
  Datum sizes[3] = {Int64GetDatum(static_cast<int64>(begin)), Int64GetDatum(static_cast<int64>(end)),
                    Int64GetDatum(above)};
  Execute(g_checkpoints.Get(), sizes, nullptr, true, 0, SPI_OK_SELECT);
  std::vector<StoredCheckpoint> stored(RowCount());
  for (uint64 row = 0; row < stored.size(); ++row)
    stored[row] = {RowInt64(row, 1).value_or(0), std::string(RowText(row, 2).value_or("")),
                   std::string(RowText(row, 3).value_or(""))};
  for (const StoredCheckpoint& checkpoint : stored) {
    if (static_cast<std::uint64_t>(checkpoint.size) > tree_size) {
      report(checkpoint.size, "the tree has " + std::to_string(tree_size) + " entries, fewer than the checkpoint at size " +
                                  std::to_string(checkpoint.size) + " stated: entries were removed from the log's tree");
      continue;
    }
    CheckOne(checkpoint, keys, root_at, report);
  }
}

}  // namespace act::pg::log
