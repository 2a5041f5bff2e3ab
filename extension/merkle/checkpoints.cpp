// Checkpoints of the verifiable log (docs/verifiable-log.md, "Checkpoints"):
// act.checkpoint states the sealed tree as a C2SP tlog-checkpoint note,
// signed with act.checkpoint_key_file when one is set; notes signed outside
// the database, and witnesses' cosignatures (tlog-cosignature/v1, keys of
// type 0x04), come back through act.add_checkpoint_signature, checked
// against the verifier keys of act.register_log_key and merged into the
// stored note. One row per size in act.checkpoints, and no size below the
// latest one is ever added.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "primary_only.hpp"
#include "pg.hpp"

extern "C" {
#include "commands/dbcommands.h"
}

#include "act/core/checkpoint.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"
#include "act/core/signed_note.hpp"
#include "act/core/text.hpp"
#include "arrays.hpp"
#include "key_file.hpp"
#include "log_store.hpp"
#include "merkle/checkpoints_sql.hpp"
#include "sealer.hpp"
#include "settings.hpp"
#include "spi.hpp"
#include "spi_rows.hpp"

using namespace act;

namespace {

constexpr Oid kNoArgs[] = {InvalidOid};
constexpr Oid kSizeOnly[] = {INT8OID};
constexpr Oid kCheckpointRow[] = {INT8OID, BYTEAOID, TEXTOID};
constexpr Oid kKeyRow[] = {TEXTOID, TEXTOID, BYTEAOID, BYTEAOID};

pg::SavedPlan g_latest_checkpoint(pg::checkpoints_sql::kLatestCheckpoint, 0, kNoArgs, pg::PlanMode::kGeneric);
pg::SavedPlan g_checkpoint_at(pg::checkpoints_sql::kCheckpointAt, 1, kSizeOnly, pg::PlanMode::kGeneric);
pg::SavedPlan g_insert_checkpoint(pg::checkpoints_sql::kInsertCheckpoint, 3, kCheckpointRow, pg::PlanMode::kGeneric);
pg::SavedPlan g_update_checkpoint(pg::checkpoints_sql::kUpdateCheckpoint, 3, kCheckpointRow, pg::PlanMode::kGeneric);
pg::SavedPlan g_insert_key(pg::checkpoints_sql::kInsertKey, 4, kKeyRow, pg::PlanMode::kGeneric);
constexpr Oid kNameKeyId[] = {TEXTOID, BYTEAOID};
pg::SavedPlan g_key_named(pg::checkpoints_sql::kKeyNamed, 2, kNameKeyId, pg::PlanMode::kGeneric);

std::string LogOrigin() {
  if (pg::g_log_origin != nullptr && pg::g_log_origin[0] != '\0') return pg::g_log_origin;
  const char* database = pg::Guard([] { return get_database_name(MyDatabaseId); });
  return std::string("pg_act/") + (database != nullptr ? database : "");
}

// A stored note as text and signatures: a note without signatures is the
// checkpoint text alone.
core::SignedNote SplitNote(const std::string& note) {
  if (note.find("\n\n") == std::string::npos) return {note, {}};
  return core::ParseSignedNote(note);
}

std::string JoinNote(const core::SignedNote& note) {
  return note.signatures.empty() ? note.text : core::FormatSignedNote(note);
}

// Adds the signatures `note` lacks (by name and key ID); whether any was new.
bool MergeSignatures(core::SignedNote& note, const std::vector<core::NoteSignature>& signatures) {
  bool added = false;
  for (const core::NoteSignature& signature : signatures) {
    const bool known = std::any_of(note.signatures.begin(), note.signatures.end(), [&](const core::NoteSignature& s) {
      return s.name == signature.name && s.key_id == signature.key_id;
    });
    if (!known) {
      note.signatures.push_back(signature);
      added = true;
    }
  }
  return added;
}

struct StoredCheckpoint {
  int64 size;
  std::string note;
};

std::optional<StoredCheckpoint> LatestCheckpoint() {
  pg::ExecuteOnLatest(g_latest_checkpoint.Get(), nullptr, nullptr, true, 0, SPI_OK_SELECT);
  if (pg::RowCount() == 0) return std::nullopt;
  return StoredCheckpoint{pg::RowInt64(0, 1).value_or(0), std::string(pg::RowText(0, 2).value_or(""))};
}

std::optional<std::string> CheckpointAt(int64 size) {
  Datum values[1] = {Int64GetDatum(size)};
  pg::ExecuteOnLatest(g_checkpoint_at.Get(), values, nullptr, true, 0, SPI_OK_SELECT);
  if (pg::RowCount() == 0) return std::nullopt;
  return std::string(pg::RowText(0, 1).value_or(""));
}

void StoreCheckpoint(SPIPlanPtr plan, int64 size, const core::Hash& root, const std::string& note, int expected) {
  Datum values[3] = {Int64GetDatum(size), pg::MakeBytea(root.data(), root.size()), pg::MakeText(note)};
  pg::ExecuteOnLatest(plan, values, nullptr, false, 0, expected);
}

std::vector<core::VerifierKey> RegisteredKeys() {
  std::vector<core::VerifierKey> keys;
  for (const std::string& vkey : pg::log::RegisteredVerifierKeys(pg::log::ReadOn::kLatest))
    keys.push_back(core::ParseVerifierKey(vkey));
  return keys;
}

// The signer of act.checkpoint_key_file, when one is set.
std::optional<core::NoteSigner> ConfiguredSigner() {
  if (pg::g_checkpoint_key_file == nullptr || pg::g_checkpoint_key_file[0] == '\0') return std::nullopt;
  const std::string path = pg::g_checkpoint_key_file;
  return core::NoteSigner::FromPem(pg::ReadKeyFile(path), "key file " + core::Quoted(path));
}

std::string Checkpoint(bool sign) {
  // The key and the origin first: a call refused for either seals nothing.
  const std::string origin = LogOrigin();
  const std::optional<core::NoteSigner> signer = sign ? ConfiguredSigner() : std::nullopt;
  if (signer) core::ValidateKeyName(origin, "act.log_origin (the key name of checkpoint signatures)");
  const pg::log::LogState state = pg::log::Seal();

  const std::optional<StoredCheckpoint> latest = LatestCheckpoint();
  if (latest && latest->size > state.size)
    throw core::SqlError(core::sqlstate::kDataCorrupted,
                         "act.checkpoints holds a checkpoint at size " + std::to_string(latest->size) +
                             " but the log has " + std::to_string(state.size) + " entries");
  if (latest && latest->size == state.size) {
    core::SignedNote note = SplitNote(latest->note);
    if (signer && MergeSignatures(note, {signer->Sign(origin, note.text)})) {
      StoreCheckpoint(g_update_checkpoint.Get(), state.size, state.root, JoinNote(note), SPI_OK_UPDATE);
      if (SPI_processed != 1)
        throw core::SqlError(core::sqlstate::kDataCorrupted, "the checkpoint at size " + std::to_string(state.size) +
                                                                 " states another root than the log's");
    }
    return JoinNote(note);
  }
  const std::string text = core::FormatCheckpoint({origin, static_cast<std::uint64_t>(state.size), state.root, {}});
  const std::string note = signer ? core::SignNote(text, origin, *signer) : text;
  StoreCheckpoint(g_insert_checkpoint.Get(), state.size, state.root, note, SPI_OK_INSERT);
  return note;
}

}  // namespace

ACT_SQL_FUNCTION(act_checkpoint) {
  pg::RequirePrimary("act.checkpoint");
  if (PG_NARGS() > 0 && PG_ARGISNULL(0))
    throw core::ValidationError("sign must not be null", core::sqlstate::kNullValueNotAllowed);
  const bool sign = PG_NARGS() == 0 || PG_GETARG_BOOL(0);
  pg::SpiSession spi;
  const std::string note = Checkpoint(sign);
  spi.Finish();
  return pg::MakeText(note);
}

ACT_SQL_FUNCTION(act_add_checkpoint_signature) {
  pg::RequirePrimary("act.add_checkpoint_signature");
  if (PG_ARGISNULL(0)) throw core::ValidationError("note must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::string note_text(pg::VarlenaBytes(PG_GETARG_DATUM(0)));
  pg::SpiSession spi;
  const core::SignedNote signed_note = core::ParseSignedNote(note_text);
  const core::Checkpoint checkpoint = core::ParseCheckpoint(signed_note.text);
  const std::string origin = LogOrigin();
  if (checkpoint.origin != origin)
    throw core::ValidationError("the note is for log \"" + checkpoint.origin + "\", not this one (\"" + origin +
                                "\", act.log_origin)");
  const pg::log::LogState state = pg::log::ReadLogState(pg::log::ReadOn::kLatest);
  const auto size = static_cast<int64>(checkpoint.size);
  if (size > state.size)
    throw core::ValidationError("the note states size " + std::to_string(size) + ", beyond the log, which has " +
                                std::to_string(state.size) + " entries");
  pg::log::StoredTiles tiles(pg::log::ReadOn::kLatest);
  const core::Hash root = size == state.size ? state.root : core::merkle::RootAt(tiles, checkpoint.size);
  if (root != checkpoint.root)
    throw core::ValidationError("the note's root is not the log's root at size " + std::to_string(size));

  const std::vector<core::VerifierKey> keys = RegisteredKeys();
  const core::NoteCheck check = core::CheckNote(note_text, keys);
  if (!check.ignored.empty())
    throw core::ValidationError("the note is signed by key \"" + check.ignored.front().name +
                                "\", which is not registered (act.register_log_key)");
  if (!check.ok()) throw core::ValidationError("the note's signatures do not hold: " + check.problem());

  const std::optional<std::string> stored = CheckpointAt(size);
  if (stored) {
    core::SignedNote note = SplitNote(*stored);
    if (note.text != signed_note.text)
      throw core::ValidationError("a checkpoint at size " + std::to_string(size) +
                                  " with another text is stored (act.checkpoints)");
    if (MergeSignatures(note, signed_note.signatures))
      StoreCheckpoint(g_update_checkpoint.Get(), size, root, JoinNote(note), SPI_OK_UPDATE);
  } else {
    const std::optional<StoredCheckpoint> latest = LatestCheckpoint();
    if (latest && latest->size > size)
      throw core::ValidationError("checkpoints never shrink: the latest is at size " + std::to_string(latest->size) +
                                  ", above the note's " + std::to_string(size));
    StoreCheckpoint(g_insert_checkpoint.Get(), size, root, core::FormatSignedNote(signed_note), SPI_OK_INSERT);
  }
  spi.Finish();
  PG_RETURN_INT64(size);
}

ACT_SQL_FUNCTION(act_register_log_key) {
  pg::RequirePrimary("act.register_log_key");
  if (PG_ARGISNULL(0)) throw core::ValidationError("vkey must not be null", core::sqlstate::kNullValueNotAllowed);
  const std::string vkey(pg::VarlenaBytes(PG_GETARG_DATUM(0)));
  const core::VerifierKey key = core::ParseVerifierKey(vkey);
  pg::SpiSession spi;
  Datum lookup[2] = {pg::MakeText(key.name), pg::MakeBytea(key.key_id.data(), key.key_id.size())};
  pg::ExecuteOnLatest(g_key_named.Get(), lookup, nullptr, true, 0, SPI_OK_SELECT);
  if (pg::RowCount() > 0 && pg::RowText(0, 1).value_or("") != vkey)
    throw core::ValidationError("another key named \"" + key.name + "\" with the same key ID is registered");
  Datum values[4] = {pg::MakeText(vkey), pg::MakeText(key.name), lookup[1],
                     pg::MakeBytea(key.public_key.data(), key.public_key.size())};
  pg::ExecuteOnLatest(g_insert_key.Get(), values, nullptr, false, 0, SPI_OK_INSERT);
  spi.Finish();
  return pg::MakeText(key.name);
}
