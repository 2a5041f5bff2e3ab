#include "act/core/cosignature.hpp"

#include <algorithm>

#include "act/core/errors.hpp"

namespace act::core {

NoteKeyId CosignerKeyId(std::string_view name, const Ed25519PublicKey& public_key) {
  return KeyIdOf(name, kCosignatureV1Type, public_key);
}

VerifierKey MakeCosignerKey(std::string_view name, const Ed25519PublicKey& public_key) {
  ValidateKeyName(name, "cosigner name");
  return VerifierKey{std::string(name), CosignerKeyId(name, public_key), public_key, kCosignatureV1Type};
}

std::string CosignedMessage(std::string_view text, std::uint64_t timestamp) {
  ValidateNoteText(text);
  if (timestamp > kMaxCosignatureTime)
    throw ValidationError("cosignature time " + std::to_string(timestamp) + " is beyond 2^63 - 1");
  std::string message = "cosignature/v1\ntime " + std::to_string(timestamp) + "\n";
  message.append(text);
  return message;
}

std::optional<Cosignature> ParseCosignature(std::span<const std::uint8_t> payload) {
  if (payload.size() != kCosignaturePayloadBytes) return std::nullopt;
  Cosignature cosignature;
  for (std::size_t i = 0; i < 8; ++i) cosignature.timestamp = cosignature.timestamp << 8 | payload[i];
  if (cosignature.timestamp > kMaxCosignatureTime) return std::nullopt;
  std::copy(payload.begin() + 8, payload.end(), cosignature.signature.begin());
  return cosignature;
}

std::vector<std::uint8_t> FormatCosignature(const Cosignature& cosignature) {
  std::vector<std::uint8_t> payload(8);
  for (std::size_t i = 0; i < 8; ++i) payload[i] = static_cast<std::uint8_t>(cosignature.timestamp >> (56 - 8 * i));
  payload.insert(payload.end(), cosignature.signature.begin(), cosignature.signature.end());
  return payload;
}

NoteSignature Cosign(const NoteSigner& signer, std::string_view name, std::string_view text, std::uint64_t timestamp) {
  const VerifierKey key = MakeCosignerKey(name, signer.public_key());
  const Cosignature cosignature{timestamp, signer.SignBytes(CosignedMessage(text, timestamp))};
  return NoteSignature{key.name, key.key_id, FormatCosignature(cosignature)};
}

bool VerifyCosignature(const VerifierKey& key, std::string_view text, std::span<const std::uint8_t> payload) {
  if (key.type != kCosignatureV1Type) return false;
  const std::optional<Cosignature> cosignature = ParseCosignature(payload);
  if (!cosignature) return false;
  return VerifyEd25519(key.public_key, CosignedMessage(text, cosignature->timestamp), cosignature->signature);
}

}  // namespace act::core
