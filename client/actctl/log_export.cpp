// actctl log export DIR: the tree of the newest stored checkpoint written as
// C2SP tlog-tiles (docs/verifiable-log.md, "Mirroring the log as tiles"), so
// that any static file server serves a copy of the log that anyone can check
// without the database (docs/tiles_verify.py). Incremental: full tiles and
// bundles already in DIR are checked, never rewritten; the checkpoint goes
// last, and only once the whole tree under it verifies.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "act/core/checkpoint.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "act/log_store.hpp"
#include "audit.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "tile_directory.hpp"
#include "tile_export.hpp"

namespace actctl {

namespace {

namespace core = act::core;

constexpr const char* kCheckpointFile = "checkpoint";

struct ExportArgs {
  std::string dir;
  bool checkpoint = false;
};

// The checkpoint a note states: the text before its signatures, or the
// whole note when it has none yet (a log that signs nothing).
core::Checkpoint CheckpointOf(const std::string& note, bool& is_signed) {
  is_signed = note.find("\n\n") != std::string::npos;
  return core::ParseCheckpoint(is_signed ? core::ParseSignedNote(note).text : note);
}

int Export(const Database& db, const ExportArgs& args) {
  try {
    {
      act::LogStore store(OpenPool(db));
      if (args.checkpoint) {
        act::LogTransaction make = store.transaction();
        make.checkpoint(true);
        make.commit();
      }
      // One snapshot: the checkpoint and the rows of its tree as of one moment.
      act::LogTransaction log = store.snapshot();
      const std::vector<act::StoredCheckpoint> rows =
          log.checkpoints_below(std::numeric_limits<std::int64_t>::max(), 1);
      if (rows.empty())
        throw UsageError(
            "act.checkpoints holds no checkpoint yet: make one (actctl log checkpoint --sign, or SELECT "
            "act.checkpoint()), or give --checkpoint");
      const auto row_size = static_cast<std::uint64_t>(rows[0].size);
      const std::string note = rows[0].note.value_or("");
      bool is_signed = false;
      core::Checkpoint checkpoint;
      try {
        checkpoint = CheckpointOf(note, is_signed);
      } catch (const core::ValidationError& e) {
        throw LogBroken(fmt::format("the stored checkpoint of size {} is not a checkpoint: {}", row_size, e.what()));
      }
      if (checkpoint.size != row_size || core::ToHex(checkpoint.root) != rows[0].root)
        throw LogBroken(
            fmt::format("the row of size {} in act.checkpoints holds the note of size {}", row_size, checkpoint.size));
      const auto log_size = static_cast<std::uint64_t>(log.log_size());
      if (checkpoint.size > log_size)
        throw LogBroken(
            fmt::format("the log has {} entries, fewer than its checkpoint's {}", log_size, checkpoint.size));

      TileDirectory dir(args.dir);
      // What readers of the directory hold now: the new tree must extend it.
      std::optional<core::Checkpoint> previous;
      if (const std::optional<std::string> old_note = dir.Current(kCheckpointFile)) {
        bool old_signed = false;
        try {
          previous = CheckpointOf(*old_note, old_signed);
        } catch (const core::ValidationError& e) {
          throw LogBroken(fmt::format("\"{}/{}\" is not a checkpoint ({}): remove it to export anyway", dir.root(),
                                      kCheckpointFile, e.what()));
        }
        if (previous->origin != checkpoint.origin || previous->size > checkpoint.size)
          throw LogBroken(fmt::format(
              "\"{}/{}\" holds the checkpoint of {} at size {}, which the log's newest ({} at size {}) cannot extend",
              dir.root(), kCheckpointFile, previous->origin, previous->size, checkpoint.origin, checkpoint.size));
      }
      const TileExportReport report = StageTiles(log, dir, checkpoint.size, checkpoint.root);
      if (previous && RootFromTiles(dir, checkpoint.size, previous->size) != previous->root)
        throw LogBroken(fmt::format(
            "the log's checkpoint of size {} does not extend the exported one of size {} (root {}): the log was "
            "rewritten since",
            checkpoint.size, previous->size, core::ToHex(previous->root)));
      dir.Stage(kCheckpointFile, note);
      dir.Publish(kCheckpointFile);
      fmt::print(
          "exported the checkpoint of size {} (root {}) to \"{}\": {} tiles and {} entry bundles written ({} "
          "partial), {} full files kept; every entry, tile and the root checked{}\n",
          checkpoint.size, core::ToHex(checkpoint.root), dir.root(), report.tiles_written, report.bundles_written,
          report.partial_written, report.files_kept,
          previous ? fmt::format(", and the tree extends the size {} exported before", previous->size) : "");
      if (!is_signed)
        fmt::print(stderr, "warning: the checkpoint is not signed; a verifier that needs a signature refuses it\n");
      return kOk;
    }
  } catch (const LogBroken& e) {
    fmt::print(stderr, "not exported: {}\n", e.what());
    return kBroken;
  }
}

}  // namespace

void AddLogExport(CLI::App& log, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* command = log.add_subcommand(
      "export",
      "Write the tree of the log's newest stored checkpoint to DIR as C2SP tlog-tiles (checkpoint, tile/<L>/<N>, "
      "tile/entries/<N>, partial tiles .p/<W>), for any static file server to serve. Incremental: full tiles and "
      "bundles already in DIR are checked and kept, partial ones rewritten; each file is renamed into place, the "
      "checkpoint last, and only after every entry, tile and the root verify and the tree extends the checkpoint DIR "
      "held. Exit 0 when exported, 3 when the log does not verify (nothing is published; stderr says what), 1 on a "
      "database or file error, 2 for unusable arguments, no checkpoint, or no connection");
  command->add_option("dir", args->dir, "the directory to export to (made when missing)")->type_name("DIR")->required();
  command->add_flag("--checkpoint", args->checkpoint,
                    "make a checkpoint with act.checkpoint() first (seals; needs act_admin; signed only when the "
                    "database signs)");
  command->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Export(db, *args); }; });
}

}  // namespace actctl
