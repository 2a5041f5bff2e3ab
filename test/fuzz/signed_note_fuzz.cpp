// C2SP signed notes and verifier keys: what parses has exactly one spelling,
// so formatting the parsed value gives the input back; checking a note
// against a key raises nothing but ValidationError.
#include <string>
#include <string_view>
#include <vector>

#include "act/core/cosignature.hpp"
#include "act/core/errors.hpp"
#include "act/core/signed_note.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using act::fuzz::Check;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const act::core::VerifierKey key = act::core::ParseVerifierKey(text);
    Check(act::core::FormatVerifierKey(key) == text, "a parsed verifier key formats back to its text");
  } catch (const act::core::ValidationError&) {
  }
  try {
    const act::core::SignedNote note = act::core::ParseSignedNote(text);
    Check(act::fuzz::ValidUtf8(text), "a parsed note is UTF-8");
    Check(act::core::FormatSignedNote(note) == text, "a parsed signed note formats back to its text");
    // The C2SP example key, and its public key as a cosigner (type 0x04): the
    // lines of either are verified, the others ignored.
    static const act::core::VerifierKey example =
        act::core::ParseVerifierKey("example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k");
    static const std::vector<act::core::VerifierKey> keys{
        example, act::core::MakeCosignerKey("example.com/foo", example.public_key)};
    const act::core::NoteCheck check = act::core::CheckNote(text, keys);
    Check(check.verified.size() + check.failed.size() + check.ignored.size() == note.signatures.size(),
          "every signature is verified, failed or ignored");
    Check(check.ok() == check.problem().empty(), "a note that does not verify says why");
  } catch (const act::core::ValidationError&) {
  }
  return 0;
}
