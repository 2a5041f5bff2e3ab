// actctl log audit: the log checked from outside the database, trusting only
// the pinned checkpoint and the verifier key (docs/operations.md, "Auditing
// the log"): the newest signed checkpoint, its consistency with the pin, the
// entries against the events, then the pin moved forward.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "act/core/event_hash.hpp"
#include "act/log_store.hpp"
#include "arguments.hpp"
#include "audit.hpp"
#include "command.hpp"
#include "connection.hpp"
#include "notes.hpp"

namespace actctl {

namespace {

namespace core = act::core;

constexpr std::uint64_t kDefaultSample = 16;

struct AuditArgs {
  std::string pin;
  std::vector<std::string> vkeys;
  bool full = false;
  std::string sample;
  bool init = false;
};

std::string Labels(const std::vector<core::VerifierKey>& keys) {
  std::string text;
  for (const core::VerifierKey& key : keys) text += (text.empty() ? "" : ", ") + KeyLabel(key);
  return text;
}

int Audit(const Database& db, const AuditArgs& args) {
  std::vector<core::VerifierKey> keys;
  for (const std::string& vkey : args.vkeys) keys.push_back(ParseVkeyOption("--vkey", vkey));
  const std::uint64_t sample = args.sample.empty() ? kDefaultSample : ParseCount("--sample", args.sample);
  if (sample == 0) throw UsageError("--sample: check at least 1 entry (or --full for all)");
  const std::optional<TrustedCheckpoint> pinned = ReadPin(args.pin, keys);
  if (!pinned && !args.init)
    throw UsageError(
        fmt::format("--pin: \"{}\" does not exist; give --init to trust the log's newest signed "
                    "checkpoint on first use",
                    args.pin));
  try {
    {
      // One snapshot: the checkpoint, the proofs and the rows are read as of one moment.
      act::LogTransaction log = act::LogStore(OpenPool(db)).snapshot();
      const std::optional<TrustedCheckpoint> latest = LatestSignedCheckpoint(log, keys);
      if (!latest) {
        if (pinned)
          throw LogBroken(
              fmt::format("act.checkpoints holds no checkpoint signed by the given key, but the pin has "
                          "size {}",
                          pinned->checkpoint.size));
        throw UsageError(
            "act.checkpoints holds no checkpoint signed by the given --vkey yet (actctl log checkpoint "
            "--sign makes one)");
      }
      const core::Checkpoint& checkpoint = latest->checkpoint;
      fmt::print("checkpoint: {} size {} root {}, signed by {}\n", checkpoint.origin, checkpoint.size,
                 core::ToHex(checkpoint.root), Labels(latest->signed_by));
      const std::int64_t log_size = log.log_size();
      if (static_cast<std::int64_t>(checkpoint.size) > log_size)
        throw LogBroken(
            fmt::format("the log has {} entries, fewer than the signed checkpoint's {}", log_size, checkpoint.size));
      if (pinned) {
        CheckConsistent(log, pinned->checkpoint, checkpoint);
        fmt::print("consistency: the pinned checkpoint of size {} is a prefix of it\n", pinned->checkpoint.size);
      } else {
        fmt::print("consistency: no pin yet, this checkpoint is trusted on first use (--init)\n");
      }
      std::mt19937_64 random{std::random_device{}()};
      const EntryReport report =
          args.full ? AuditAllEntries(log, checkpoint) : AuditSampledEntries(log, checkpoint, sample, random);
      fmt::print(
          "entries: {} of {} checked{}: {} events recomputed ({} along their chains), {} deleted and accounted for "
          "by removal records ({} by records not yet in this checkpoint); {}\n",
          report.entries, checkpoint.size, args.full ? " (full)" : "", report.events, report.chained, report.deleted,
          report.later, args.full ? "the root of the entries is the checkpoint's" : "each inclusion proof holds");
      WritePin(args.pin, latest->note);
      fmt::print("pin: \"{}\" holds the checkpoint of size {}\n", args.pin, checkpoint.size);
      return kOk;
    }
  } catch (const LogBroken& e) {
    fmt::print(stderr, "audit failed: {}\n", e.what());
    return kBroken;
  }
}

}  // namespace

void AddLogAudit(CLI::App& log, const Database& db, Chosen& chosen) {
  auto args = std::make_shared<AuditArgs>();
  CLI::App* audit = log.add_subcommand(
      "audit",
      "Audit the log trusting only the pinned checkpoint and the verifier key: the newest checkpoint signed by the key, "
      "its consistency with the pin (checked here), then entries against the events (hashes recomputed along each "
      "stream's chain, each missing event accounted for by a removal record; with --full the root of all entries, else "
      "inclusion proofs of a random sample); on success the "
      "pin moves to the new checkpoint. Exit 0 when everything holds, 3 when the log does not verify (stderr says "
      "what), 1 on a database error, 2 for unusable arguments, a missing pin without --init, or no connection");
  audit
      ->add_option("--pin", args->pin,
                   "the last checkpoint this auditor accepted (a signed note); rewritten on success")
      ->type_name("FILE")
      ->required();
  audit->add_option("--vkey", args->vkeys, "the log's verifier key (actctl log vkey); repeatable")
      ->type_name("VKEY")
      ->allow_extra_args(false)
      ->required();
  CLI::Option* full = audit->add_flag("--full", args->full, "check every entry and recompute the root");
  audit
      ->add_option("--sample", args->sample,
                   fmt::format("check N entries at random positions (default {})", kDefaultSample))
      ->type_name("N")
      ->excludes(full);
  audit->add_flag("--init", args->init,
                  "when the pin file does not exist, trust the newest signed checkpoint on first use");
  audit->callback([&chosen, &db, args] { chosen.run = [&db, args] { return Audit(db, *args); }; });
}

}  // namespace actctl
