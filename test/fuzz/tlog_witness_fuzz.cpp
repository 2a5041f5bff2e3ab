// A witness's add-checkpoint body, as any client may send it: what parses
// formats back to itself, and the witness's verdict is always one of C2SP's
// statuses, never an exception, whatever the body. A cosignature is given
// only with a 200, and then for the body's checkpoint.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/checkpoint.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "act/core/tlog_witness.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using act::fuzz::Check;
  namespace core = act::core;
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  try {
    const core::AddCheckpointRequest request = core::ParseAddCheckpoint(body);
    Check(core::FormatAddCheckpoint(request) == body, "a parsed request formats back to its body");
  } catch (const core::ValidationError&) {
  }
  // The RFC 8032 test key as both the log's (example.com/log) and, as a
  // cosigner, the witness's; a witness that has cosigned size 2 of the log.
  static const core::NoteSigner signer = core::NoteSigner::FromPem(
      "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE "
      "KEY-----\n");
  static const std::vector<core::VerifierKey> keys{signer.VerifierKeyFor("example.com/log")};
  static const std::optional<core::WitnessedCheckpoint> last = core::WitnessedCheckpoint{
      core::Checkpoint{"example.com/log", 2, core::Hash{}, {}}, ""};
  for (const auto& state : {std::optional<core::WitnessedCheckpoint>{}, last}) {
    const core::WitnessVerdict verdict = core::JudgeAddCheckpoint(body, keys, state, signer, "w.example/w", 1);
    const int status = verdict.status;
    Check(status == 200 || status == 400 || status == 403 || status == 404 || status == 409 || status == 422,
          "the verdict is a C2SP status");
    Check(verdict.accepted.has_value() == (status == 200), "only a 200 has a checkpoint to keep");
    if (verdict.accepted)
      Check(core::ParseCheckpoint(core::ParseSignedNote(verdict.accepted->note).text) == verdict.accepted->checkpoint,
            "the kept note states the kept checkpoint");
  }
  return 0;
}
