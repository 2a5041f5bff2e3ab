// actctl log checkpoint --sign: the log's checkpoint signed outside the
// database (docs/operations.md, "Signing keys and signed notes"): the body from
// act.checkpoint(false), signed here under the origin, handed back to
// act.add_checkpoint_signature, which checks it against act.log_keys.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "act/core/checkpoint.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "act/log_store.hpp"
#include "audit.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "notes.hpp"

namespace actctl {

namespace {

namespace core = act::core;

struct CheckpointArgs {
  std::string key_file, pin;
};

int SignCheckpoint(const Database& db, const CheckpointArgs& args) {
  const core::NoteSigner signer = LoadKey(args.key_file);
  try {
    {
      // One transaction: a checkpoint refused below leaves nothing stored, not even its unsigned text.
      act::LogTransaction log = act::LogStore(OpenPool(db)).transaction();
      const std::string body = log.checkpoint(false);
      core::Checkpoint checkpoint;
      try {
        checkpoint = core::ParseCheckpoint(body);
      } catch (const core::ValidationError& e) {
        throw std::runtime_error(fmt::format("act.checkpoint(false) gave no checkpoint: {}", e.what()));
      }
      core::VerifierKey key;
      try {
        key = signer.VerifierKeyFor(checkpoint.origin);
      } catch (const core::ValidationError& e) {
        throw UsageError(fmt::format("the log's origin cannot name a signing key: {}", e.what()));
      }
      // A log must never sign a checkpoint inconsistent with one it signed before (C2SP tlog-checkpoint).
      if (!args.pin.empty())
        if (const std::optional<TrustedCheckpoint> pinned = ReadPin(args.pin, std::span(&key, 1)))
          CheckConsistent(log, pinned->checkpoint, checkpoint);
      const std::string note = core::SignNote(body, checkpoint.origin, signer);
      const std::int64_t size = log.add_checkpoint_signature(note);
      const std::optional<std::string> stored = log.checkpoint_note(size);
      if (!stored) throw std::runtime_error(fmt::format("act.checkpoints has no row of size {} after signing", size));
      const std::string stored_note = *stored;
      log.commit();
      if (!args.pin.empty()) WritePin(args.pin, stored_note);
      fmt::print("{}", stored_note);
      return kOk;
    }
  } catch (const LogBroken& e) {
    fmt::print(stderr, "not signed: {}\n", e.what());
    return kBroken;
  }
}

}  // namespace

void AddLogCheckpoint(CLI::App& log, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<CheckpointArgs>();
  CLI::App* checkpoint = log.add_subcommand(
      "checkpoint",
      "Sign the log's current checkpoint outside the database: act.checkpoint(false) gives the body, it is signed here "
      "under the log's origin and handed to act.add_checkpoint_signature (the key's vkey must be registered with "
      "act.register_log_key); print the stored signed note. With --pin, refuse a checkpoint inconsistent with the one "
      "signed last (exit 3) and pin the new one. Exit 0 when signed, 1 on a database error, 2 for an unusable key or "
      "no connection");
  checkpoint->add_option("--sign", args->key_file, "the log's Ed25519 private key, PEM")
      ->type_name("FILE.pem")
      ->required();
  checkpoint->add_option("--pin", args->pin, "the checkpoint this signer signed last; rewritten on success")
      ->type_name("FILE");
  checkpoint->callback([&chosen, &db, args] { chosen.run = [&db, args] { return SignCheckpoint(db, *args); }; });
}

}  // namespace actctl
