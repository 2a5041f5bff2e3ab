#pragma once
// The witness's side of C2SP tlog-witness (https://c2sp.org/tlog-witness),
// add-checkpoint, without the HTTP: the request body, and the verdict on it
// given the log's keys and the last checkpoint the witness cosigned for its
// origin. The caller persists an accepted checkpoint before answering, under
// one lock with the read of the last one (act.witness's server does).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/checkpoint.hpp"
#include "act/core/signed_note.hpp"

namespace act::core {

// C2SP: a client sends at most 63 consistency proof lines.
inline constexpr std::size_t kMaxWitnessProofLines = 63;

// "old <size>\n", one base64 hash per line, "\n", then the signed checkpoint.
struct AddCheckpointRequest {
  std::uint64_t old_size = 0;
  std::vector<Hash> proof;
  std::string note;
  friend bool operator==(const AddCheckpointRequest&, const AddCheckpointRequest&) = default;
};

// Strict (no leading zeros, canonical base64 of 32 bytes, at most 63 proof
// lines); throws ValidationError naming the line. The note is not checked.
AddCheckpointRequest ParseAddCheckpoint(std::string_view body);
std::string FormatAddCheckpoint(const AddCheckpointRequest& request);

// What a witness keeps per log: the last checkpoint it cosigned.
struct WitnessedCheckpoint {
  Checkpoint checkpoint;
  std::string note;  // the checkpoint as it came, with the witness's cosignature added
};

// The HTTP status and body to answer with; `accepted` is set only for 200,
// and is what the witness must persist before answering.
struct WitnessVerdict {
  int status = 0;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;  // 200: the cosignature line(s); 409: "<size>\n"; otherwise why
  std::optional<WitnessedCheckpoint> accepted;
};

// The origin of a request's checkpoint, to find its keys and state: nullopt
// when the body or its checkpoint is malformed (JudgeAddCheckpoint says why).
std::optional<std::string> RequestOrigin(std::string_view body);

// The witness's checks, in the order C2SP gives their statuses: 400 for a
// malformed request or an old size beyond the checkpoint, 404 for an origin
// without `log_keys`, 403 unless a log key verifies the note and none fails,
// 409 when the old size is not the last cosigned one, 422 for a proof that
// does not hold (or a root other than the last at the same size), 200 with a
// cosignature by `signer` under `witness_name` at `now` (POSIX seconds).
WitnessVerdict JudgeAddCheckpoint(std::string_view body, std::span<const VerifierKey> log_keys,
                                  const std::optional<WitnessedCheckpoint>& last, const NoteSigner& signer,
                                  std::string_view witness_name, std::uint64_t now);

}  // namespace act::core
