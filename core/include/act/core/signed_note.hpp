#pragma once
// C2SP signed notes (https://c2sp.org/signed-note) with Ed25519 keys: a text
// ending in "\n", a blank line, then one line per signature,
// "— <key name> base64(4-byte key ID || signature)" (U+2014 em dash). A
// checkpoint (act/core/checkpoint.hpp) is such a text.
//
// Everything here parses strictly: what parses has exactly one spelling
// (canonical base64, lower-case hex key IDs), so formatting a parsed value
// gives its text back. Faults are ValidationErrors naming what is wrong.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace act::core {

// The C2SP signature type byte of Ed25519 (in key IDs and verifier keys).
inline constexpr std::uint8_t kEd25519SignatureType = 0x01;
// The type byte of a C2SP tlog-cosignature/v1 cosigner's Ed25519 key: a
// timestamped signature over a prefixed message (act/core/cosignature.hpp).
inline constexpr std::uint8_t kCosignatureV1Type = 0x04;
// More signature lines than this make a note malformed: C2SP asks verifiers
// to accept at least 16, and a bound keeps a hostile note from costing
// unbounded verification work.
inline constexpr std::size_t kMaxNoteSignatures = 100;

using NoteKeyId = std::array<std::uint8_t, 4>;
using Ed25519PublicKey = std::array<std::uint8_t, 32>;

// SHA-256(name || 0x0A || type || public key)[:4]. Does not check the name.
NoteKeyId KeyIdOf(std::string_view name, std::uint8_t type, const Ed25519PublicKey& public_key);
// KeyIdOf with type 0x01: the key ID of a note signer.
NoteKeyId Ed25519KeyId(std::string_view name, const Ed25519PublicKey& public_key);

// A verifier key: who may sign, the key that checks it and how. Type 0x01
// checks a plain Ed25519 signature of the note text; type 0x04 a
// tlog-cosignature/v1 (act/core/cosignature.hpp). Both are Ed25519 keys.
struct VerifierKey {
  std::string name;
  NoteKeyId key_id{};
  Ed25519PublicKey public_key{};
  std::uint8_t type = kEd25519SignatureType;
  friend bool operator==(const VerifierKey&, const VerifierKey&) = default;
};

// Throws ValidationError for a key name that is empty, not UTF-8, or holds a
// '+', a space of any kind or a control character. `what` names it in the
// message ("key name", "--name", ...).
void ValidateKeyName(std::string_view name, std::string_view what = "key name");

// The verifier key of `public_key` under `name`, its key ID computed.
VerifierKey MakeVerifierKey(std::string_view name, const Ed25519PublicKey& public_key);

// "<name>+<8 lower-case hex digits of the key ID>+base64(type || public key)".
// Strict: the name valid (ValidateKeyName), the key ID the one the name, type
// and key give, type byte 0x01 or 0x04 and a 32-byte key.
VerifierKey ParseVerifierKey(std::string_view vkey);
// Throws ValidationError for an invalid name or a key ID that is not the key's.
std::string FormatVerifierKey(const VerifierKey& key);

// One signature line. `signature` is what follows the key ID: 64 bytes for
// Ed25519, other lengths for other signature types (kept, never checked).
struct NoteSignature {
  std::string name;
  NoteKeyId key_id{};
  std::vector<std::uint8_t> signature;
  friend bool operator==(const NoteSignature&, const NoteSignature&) = default;
};

struct SignedNote {
  std::string text;  // ends in "\n"; the blank line before the signatures is not part of it
  std::vector<NoteSignature> signatures;
  friend bool operator==(const SignedNote&, const SignedNote&) = default;
};

// Throws ValidationError unless `text` may be the text of a note: not empty,
// ending in "\n", UTF-8 without control characters other than "\n".
void ValidateNoteText(std::string_view text);

// The text is everything up to the last blank line; after it come 1 to
// kMaxNoteSignatures signature lines, each "— ", a valid key name, one
// space, canonical base64 of at least 5 bytes, "\n". The whole note is UTF-8
// without control characters other than "\n".
SignedNote ParseSignedNote(std::string_view note);
// "— <name> <base64>\n". Throws ValidationError for an invalid name or an
// empty signature.
std::string FormatSignatureLine(const NoteSignature& signature);
// The text, a blank line, the signature lines (at least one).
std::string FormatSignedNote(const SignedNote& note);

// Signs note texts with an Ed25519 private key.
class NoteSigner {
 public:
  // A PEM private key ("-----BEGIN PRIVATE KEY-----", PKCS #8), unencrypted.
  // ValidationError for text that holds no such key, an encrypted key, or a
  // key of another type than Ed25519 (naming it).
  // `what` names the text in messages ("key file ...").
  static NoteSigner FromPem(std::string_view pem, const std::string& what = "PEM text");
  // The same from a file; ValidationError naming the file when it cannot be read.
  static NoteSigner FromPemFile(const std::string& path);

  NoteSigner(NoteSigner&&) noexcept;
  NoteSigner& operator=(NoteSigner&&) noexcept;
  ~NoteSigner();

  const Ed25519PublicKey& public_key() const { return public_key_; }
  VerifierKey VerifierKeyFor(std::string_view name) const { return MakeVerifierKey(name, public_key_); }

  // The signature of `text` (ValidateNoteText) under key name `name`.
  NoteSignature Sign(std::string_view name, std::string_view text) const;
  // The bare Ed25519 signature of any bytes: for signed messages that are not
  // a note text (a cosignature's, act/core/cosignature.hpp).
  std::array<std::uint8_t, 64> SignBytes(std::string_view message) const;

 private:
  struct Key;
  explicit NoteSigner(std::unique_ptr<Key> key);
  static NoteSigner Load(std::string_view pem, const std::string& what);
  std::unique_ptr<Key> key_;
  Ed25519PublicKey public_key_{};
};

// `text` signed by `signer` under `name`: the text, a blank line, the signature line.
std::string SignNote(std::string_view text, std::string_view name, const NoteSigner& signer);

// Whether `signature` is `public_key`'s Ed25519 signature of `message`.
bool VerifyEd25519(const Ed25519PublicKey& public_key, std::string_view message,
                   std::span<const std::uint8_t> signature);

// What a note's signatures say about it, given the keys a verifier trusts.
// A signature counts for a key when its name and key ID are the key's (C2SP:
// sharing one of the two is not enough); the others are ignored. A key of
// type 0x04 checks its line as a cosignature (VerifyCosignature).
struct NoteCheck {
  SignedNote note;
  std::vector<VerifierKey> verified;   // given keys whose signature holds
  std::vector<VerifierKey> failed;     // given keys whose signature does not hold
  std::vector<NoteSignature> ignored;  // signatures by keys not given
  // C2SP: at least one signature by a given key holds, and none fails.
  bool ok() const { return failed.empty() && !verified.empty(); }
  // One sentence naming what failed; empty when ok().
  std::string problem() const;
};

// Throws ValidationError for a malformed note (ParseSignedNote), for a given
// key that signs it twice, and for two given keys with the same name and key
// ID but different public keys.
NoteCheck CheckNote(std::string_view note, std::span<const VerifierKey> keys);

}  // namespace act::core
