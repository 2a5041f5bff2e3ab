#pragma once
// What actctl log audit's pieces share: a finding that the log is broken
// (exit kBroken), a checkpoint the auditor trusts, and the checks, each
// against what the database says, verified here with core.
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "act/core/checkpoint.hpp"
#include "act/core/merkle.hpp"
#include "act/core/signed_note.hpp"
#include "act/log_transaction.hpp"

namespace actctl {

// The log does not verify: the message says where and how. Exit kBroken.
class LogBroken : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A checkpoint whose note verified against the trusted keys.
struct TrustedCheckpoint {
  std::string note;  // the signed note, as stored
  act::core::Checkpoint checkpoint;
  std::vector<act::core::VerifierKey> signed_by;
};

// The pin file (audit_checkpoints.cpp): nullopt when it does not exist. A pin that cannot
// be read, is malformed or does not verify with `keys` is a UsageError: it
// is the auditor's own file, and the keys given may be the wrong ones.
std::optional<TrustedCheckpoint> ReadPin(const std::string& path, std::span<const act::core::VerifierKey> keys);
// Replaces the pin atomically (a temporary file renamed over it, synced).
void WritePin(const std::string& path, const std::string& note);

// The newest checkpoint in act.checkpoints signed by one of `keys`; rows
// without a signature by them (not signed yet, or by others only) are
// skipped. nullopt when there is none. LogBroken for a stored note that is
// malformed, a signature by a given key that does not verify, or a row whose
// size or root is not its note's.
std::optional<TrustedCheckpoint> LatestSignedCheckpoint(act::LogTransaction& log,
                                                        std::span<const act::core::VerifierKey> keys);

// LogBroken unless `newer` extends `older`: the same origin, a size no
// smaller, and act.prove_consistency's proof between them holding here.
void CheckConsistent(act::LogTransaction& log, const act::core::Checkpoint& older,
                     const act::core::Checkpoint& newer);

// Hashes the database gave as hex (a proof's path); LogBroken naming `what`
// for an element that is not 32 bytes.
act::core::merkle::Path HashList(const std::vector<std::string>& hexes, const std::string& what);

// What the entry checks covered (audit_entries.cpp).
struct EntryReport {
  std::uint64_t entries = 0;  // entries checked
  std::uint64_t events = 0;   // of them, events present whose hash was recomputed
  std::uint64_t deleted = 0;  // of them, events deleted by act.truncate, each accounted for by a removal record
  std::uint64_t later = 0;    // of those, accounted for by records not yet inside the checkpoint's tree
  std::uint64_t chained = 0;  // events whose chain was recomputed on the way (samples: earlier versions too)
};

// Every entry of the checkpoint's tree: each present event's hash recomputed
// from its row along its stream's chain (from version 0 or the stream's
// anchor) and equal to its entry, each absent one accounted for by a removal
// record (audit_removals.hpp), every event up to the last entry's id in the
// log, the anchors chained to deleted entries, and the root of the entries
// the checkpoint's root. LogBroken naming the first fault.
EntryReport AuditAllEntries(act::LogTransaction& log, const act::core::Checkpoint& checkpoint);

// `count` entries at random positions (all when count >= the size): each
// present event's chain recomputed up to it and equal to its entry, each
// absent one accounted for by a removal record, and the
// entry's inclusion proof (act.prove_inclusion) holding against the
// checkpoint's root.
EntryReport AuditSampledEntries(act::LogTransaction& log, const act::core::Checkpoint& checkpoint,
                                std::uint64_t count, std::mt19937_64& random);

}  // namespace actctl
