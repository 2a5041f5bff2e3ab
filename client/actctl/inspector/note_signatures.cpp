#include "inspector/note_signatures.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <optional>

#include "act/core/cosignature.hpp"
#include "act/core/errors.hpp"

namespace actctl::inspector {

namespace {

namespace core = act::core;

// The payload lengths of the two kinds, for a line whose key is not registered.
constexpr std::size_t kEd25519SignatureBytes = 64;

std::string KeyIdHex(const core::NoteKeyId& key_id) {
  return fmt::format("{:02x}{:02x}{:02x}{:02x}", key_id[0], key_id[1], key_id[2], key_id[3]);
}

nlohmann::json SignatureJson(const core::SignedNote& note, const core::NoteSignature& line,
                             std::span<const core::VerifierKey> keys) {
  const auto key = std::find_if(keys.begin(), keys.end(), [&line](const core::VerifierKey& candidate) {
    return candidate.name == line.name && candidate.key_id == line.key_id;
  });
  const bool cosigned = key != keys.end() ? key->type == core::kCosignatureV1Type
                                          : line.signature.size() == core::kCosignaturePayloadBytes;
  const bool plain =
      key != keys.end() ? key->type == core::kEd25519SignatureType : line.signature.size() == kEd25519SignatureBytes;
  nlohmann::json time = nullptr;
  if (cosigned) {
    if (const std::optional<core::Cosignature> cosignature = core::ParseCosignature(line.signature))
      time = fmt::format(
          "{:%Y-%m-%dT%H:%M:%SZ}",
          std::chrono::sys_seconds{std::chrono::seconds{static_cast<std::int64_t>(cosignature->timestamp)}});
  }
  nlohmann::json valid = nullptr;
  if (key != keys.end())
    valid = cosigned ? core::VerifyCosignature(*key, note.text, line.signature)
                     : core::VerifyEd25519(key->public_key, note.text, line.signature);
  return {{"name", line.name},
          {"key_id", KeyIdHex(line.key_id)},
          {"kind", cosigned ? "cosignature"
                   : plain  ? "signature"
                            : "unknown"},
          {"time", std::move(time)},
          {"valid", std::move(valid)}};
}

}  // namespace

nlohmann::json NoteSignaturesJson(std::string_view note, std::span<const core::VerifierKey> keys) {
  nlohmann::json lines = nlohmann::json::array();
  core::SignedNote parsed;
  try {
    parsed = core::ParseSignedNote(note);
  } catch (const core::ValidationError&) {
    return lines;  // not signed yet: a checkpoint text alone
  }
  for (const core::NoteSignature& line : parsed.signatures) lines.push_back(SignatureJson(parsed, line, keys));
  return lines;
}

}  // namespace actctl::inspector
