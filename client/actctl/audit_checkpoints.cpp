// The checkpoints actctl log audit trusts: the pinned one, the newest signed
// one in act.checkpoints, and the consistency proof between them.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>

#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"
#include "audit.hpp"
#include "command.hpp"
#include "notes.hpp"

namespace actctl {

namespace core = act::core;

std::optional<TrustedCheckpoint> ReadPin(const std::string& path, std::span<const core::VerifierKey> keys) {
  if (path == "-") throw UsageError("--pin: the pin is a file that audit rewrites, not standard input");
  struct stat status {};
  if (stat(path.c_str(), &status) != 0) {
    if (errno == ENOENT) return std::nullopt;
    throw UsageError(fmt::format("--pin: cannot read \"{}\": {}", path, std::strerror(errno)));
  }
  const std::string note = ReadNoteInput(path);
  const core::NoteCheck check = CheckNoteInput(note, keys);
  if (!check.ok())
    throw UsageError(fmt::format("--pin: \"{}\" does not verify with the given --vkey: {}", path, check.problem()));
  try {
    return TrustedCheckpoint{note, core::ParseCheckpoint(check.note.text), check.verified};
  } catch (const core::ValidationError& e) {
    throw UsageError(fmt::format("--pin: \"{}\" is not a checkpoint: {}", path, e.what()));
  }
}

void WritePin(const std::string& path, const std::string& note) {
  const std::string temporary = path + ".new";
  const auto fail = [&](const char* doing) {
    const int error = errno;
    unlink(temporary.c_str());
    throw UsageError(fmt::format("--pin: cannot {} \"{}\": {}", doing, temporary, std::strerror(error)));
  };
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create");
  for (std::size_t written = 0; written < note.size();) {
    const ssize_t n = write(fd, note.data() + written, note.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      close(fd);
      fail("write");
    }
    written += static_cast<std::size_t>(n);
  }
  // Synced before the rename: a crash leaves the old pin or the new one, never half of one.
  if (fsync(fd) != 0) {
    close(fd);
    fail("sync");
  }
  if (close(fd) != 0) fail("close");
  if (rename(temporary.c_str(), path.c_str()) != 0) fail("rename");
}

std::optional<TrustedCheckpoint> LatestSignedCheckpoint(act::LogTransaction& log,
                                                        std::span<const core::VerifierKey> keys) {
  constexpr std::int32_t kPage = 100;
  std::int64_t below = std::numeric_limits<std::int64_t>::max();
  for (;;) {
    const std::vector<act::StoredCheckpoint> rows = log.checkpoints_below(below, kPage);
    for (const act::StoredCheckpoint& row : rows) {
      below = row.size;
      const std::string note = row.note.value_or("");
      core::NoteCheck check;
      try {
        check = core::CheckNote(note, keys);
      } catch (const core::ValidationError& e) {
        try {
          core::ParseCheckpoint(note);  // a body alone: not signed yet
          continue;
        } catch (const core::ValidationError&) {
        }
        throw LogBroken(fmt::format("the stored checkpoint of size {} is not a signed note: {}", below, e.what()));
      }
      if (!check.failed.empty())
        throw LogBroken(fmt::format("the stored checkpoint of size {}: {}", below, check.problem()));
      if (check.verified.empty()) continue;  // signed by other keys only
      core::Checkpoint checkpoint;
      try {
        checkpoint = core::ParseCheckpoint(check.note.text);
      } catch (const core::ValidationError& e) {
        throw LogBroken(fmt::format("the signed note of size {} is not a checkpoint: {}", below, e.what()));
      }
      const auto root = core::HashFromHex(row.root.value_or(""));
      if (static_cast<std::int64_t>(checkpoint.size) != below || !root || *root != checkpoint.root)
        throw LogBroken(
            fmt::format("the row of size {} in act.checkpoints (root {}) holds a signed note of size {} "
                        "(root {})",
                        below, row.root.value_or("NULL"), checkpoint.size, core::ToHex(checkpoint.root)));
      return TrustedCheckpoint{note, std::move(checkpoint), std::move(check.verified)};
    }
    if (rows.size() < static_cast<std::size_t>(kPage)) return std::nullopt;
  }
}

void CheckConsistent(act::LogTransaction& log, const core::Checkpoint& older, const core::Checkpoint& newer) {
  if (older.origin != newer.origin)
    throw LogBroken(fmt::format("the checkpoint's origin \"{}\" is not the pinned origin \"{}\": another log",
                                newer.origin, older.origin));
  if (newer.size < older.size)
    throw LogBroken(
        fmt::format("the newest signed checkpoint has size {}, below the pinned size {}: the log was "
                    "rolled back",
                    newer.size, older.size));
  const core::merkle::Path path =
      HashList(log.consistency_proof(static_cast<std::int64_t>(older.size), static_cast<std::int64_t>(newer.size)),
               "act.prove_consistency's proof");
  const core::merkle::ProofCheck check =
      core::merkle::CheckConsistency(older.size, older.root, newer.size, newer.root, path);
  if (!check.ok())
    throw LogBroken(
        fmt::format("the checkpoint of size {} (root {}) is not consistent with the pinned one of size {} "
                    "(root {}): {}",
                    newer.size, core::ToHex(newer.root), older.size, core::ToHex(older.root), check.problem));
}

}  // namespace actctl
