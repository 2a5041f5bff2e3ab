#pragma once
// C2SP tlog-cosignature/v1 with Ed25519 (https://c2sp.org/tlog-cosignature):
// a witness's statement that, at a time, the checkpoint is the largest
// consistent tree it has seen of the log. It is a signed-note signature line
// whose key ID uses type byte 0x04 and whose payload after the key ID is an
// 8-byte big-endian POSIX timestamp and a 64-byte Ed25519 signature of
//
//   cosignature/v1\n
//   time <timestamp>\n
//   <the checkpoint text, signature lines excluded>
//
// The message does not commit to the cosigner's name: one key per cosigner.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "act/core/signed_note.hpp"

namespace act::core {

inline constexpr std::size_t kCosignaturePayloadBytes = 8 + 64;
// C2SP: a timestamp must not exceed 2^63 - 1.
inline constexpr std::uint64_t kMaxCosignatureTime = (std::uint64_t{1} << 63) - 1;

// SHA-256(name || 0x0A || 0x04 || public key)[:4]. Does not check the name.
NoteKeyId CosignerKeyId(std::string_view name, const Ed25519PublicKey& public_key);

// The type-0x04 verifier key of `public_key` under `name` (ValidateKeyName).
VerifierKey MakeCosignerKey(std::string_view name, const Ed25519PublicKey& public_key);

// What a cosigner signs: the header line, the time line, the text. Throws
// ValidationError for a text that is not a note text or a time beyond 2^63 - 1.
std::string CosignedMessage(std::string_view text, std::uint64_t timestamp);

// The payload of a cosignature line, after its key ID.
struct Cosignature {
  std::uint64_t timestamp = 0;
  std::array<std::uint8_t, 64> signature{};
  friend bool operator==(const Cosignature&, const Cosignature&) = default;
};

// Exactly 72 bytes with a timestamp of at most 2^63 - 1; nullopt otherwise.
std::optional<Cosignature> ParseCosignature(std::span<const std::uint8_t> payload);
// Timestamp (big-endian) || signature.
std::vector<std::uint8_t> FormatCosignature(const Cosignature& cosignature);

// `text` cosigned at `timestamp` by `signer` under `name`: a signature line
// keyed by CosignerKeyId. Throws ValidationError for a bad name, text or time.
NoteSignature Cosign(const NoteSigner& signer, std::string_view name, std::string_view text, std::uint64_t timestamp);

// Whether `payload` (a signature line's bytes after the key ID) is a valid
// cosignature of `text` by `key`, a type-0x04 key; false for any other key.
bool VerifyCosignature(const VerifierKey& key, std::string_view text, std::span<const std::uint8_t> payload);

}  // namespace act::core
