#include "act/core/signed_note.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>

#include "act/core/cosignature.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/text.hpp"

namespace act::core {

namespace {

// ---- OpenSSL handles ------------------------------------------------------

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;
using Bio = std::unique_ptr<BIO, BioFree>;

// The reason for the last OpenSSL failure, and an empty error queue after it:
// the extension shares the backend's queue with the server's own TLS, which
// takes a stale entry for a failure of its own.
std::string TakeOpenSslReason() {
  const unsigned long code = ERR_peek_last_error();
  const char* reason = code == 0 ? nullptr : ERR_reason_error_string(code);
  ERR_clear_error();
  return reason ? reason : "no reason given";
}

MdCtx NewMdCtx() {
  MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx) throw std::runtime_error("OpenSSL could not allocate a digest context");
  return ctx;
}

constexpr std::size_t kEd25519SignatureBytes = 64;
constexpr std::size_t kMaxKeyFileBytes = 1 << 16;  // an Ed25519 PEM is 119 bytes
constexpr std::string_view kEmDashSpace = "\xE2\x80\x94 ";

// ---- Text -----------------------------------------------------------------

// The code point at text[i], advancing i; false for bytes that are not strict
// UTF-8 (overlong forms, surrogates, beyond U+10FFFF).
bool NextCodePoint(std::string_view text, std::size_t& i, std::uint32_t& code) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = 0;
  if (lead < 0x80) {
    code = lead;
    ++i;
    return true;
  }
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1Fu;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0Fu;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07u;
  } else {
    return false;
  }
  if (i + length > text.size()) return false;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) return false;
    code = code << 6 | (next & 0x3Fu);
  }
  constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
  i += length;
  return true;
}

// Unicode White_Space (what C2SP's "Unicode spaces" means in Go's reference).
bool IsUnicodeSpace(std::uint32_t code) {
  return (code >= 0x09 && code <= 0x0D) || code == 0x20 || code == 0x85 || code == 0xA0 || code == 0x1680 ||
         (code >= 0x2000 && code <= 0x200A) || code == 0x2028 || code == 0x2029 || code == 0x202F || code == 0x205F ||
         code == 0x3000;
}

// C2SP: a note is UTF-8 without control characters other than newline.
void CheckNoteBytes(std::string_view text, std::string_view what) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t at = i;
    std::uint32_t code = 0;
    if (!NextCodePoint(text, i, code))
      throw ValidationError(std::string(what) + " is not UTF-8 (at byte " + std::to_string(at) + ")");
    if (code < 0x20 && code != '\n') {
      char hex[5];
      std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(code));
      throw ValidationError(std::string(what) + " holds control character " + hex + " at byte " + std::to_string(at) +
                            " (only newlines may appear)");
    }
  }
}

// Why `name` cannot be a key name; empty when it can.
std::string NameFault(std::string_view name) {
  if (name.empty()) return "is empty";
  for (std::size_t i = 0; i < name.size();) {
    std::uint32_t code = 0;
    if (!NextCodePoint(name, i, code)) return "is not UTF-8";
    char point[16];
    std::snprintf(point, sizeof point, "U+%04X", static_cast<unsigned>(code));
    if (code == '+') return "holds a '+'";
    if (IsUnicodeSpace(code)) return std::string("holds a space (") + point + ")";
    if (code < 0x20 || code == 0x7F || (code >= 0x80 && code < 0xA0))
      return std::string("holds a control character (") + point + ")";
  }
  return {};
}

std::string KeyIdHex(const NoteKeyId& id) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (std::uint8_t byte : id) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0x0F]);
  }
  return hex;
}

// "name+keyid": how messages name a key.
std::string KeyLabel(std::string_view name, const NoteKeyId& id) { return std::string(name) + "+" + KeyIdHex(id); }

bool ParseKeyIdHex(std::string_view hex, NoteKeyId& id) {
  if (hex.size() != 2 * id.size()) return false;
  const auto value = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  for (std::size_t i = 0; i < id.size(); ++i) {
    const int high = value(hex[2 * i]);
    const int low = value(hex[2 * i + 1]);
    if (high < 0 || low < 0) return false;
    id[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return true;
}

// PEM_read_bio_PrivateKey asks for a passphrase on the terminal unless given
// a callback: this one refuses, and notes that a passphrase was wanted.
int RefusePassphrase(char*, int, int, void* asked) {
  *static_cast<bool*>(asked) = true;
  return -1;
}

}  // namespace

// ---- Ed25519 --------------------------------------------------------------

bool VerifyEd25519(const Ed25519PublicKey& public_key, std::string_view message,
                   std::span<const std::uint8_t> signature) {
  if (signature.size() != kEd25519SignatureBytes) return false;
  const Pkey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, public_key.data(), public_key.size()));
  if (!key) {
    ERR_clear_error();
    return false;
  }
  const MdCtx ctx = NewMdCtx();
  // Ed25519 hashes internally: no digest, one-shot verification.
  const bool holds = EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
                     EVP_DigestVerify(ctx.get(), signature.data(), signature.size(),
                                      reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
  ERR_clear_error();  // a signature that does not hold leaves an entry
  return holds;
}

// ---- Keys -------------------------------------------------------------------

NoteKeyId KeyIdOf(std::string_view name, std::uint8_t type, const Ed25519PublicKey& public_key) {
  std::string preimage(name);
  preimage.push_back('\n');
  preimage.push_back(static_cast<char>(type));
  preimage.append(reinterpret_cast<const char*>(public_key.data()), public_key.size());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(preimage.data(), preimage.size(), digest, &length, EVP_sha256(), nullptr) != 1 || length != 32)
    throw std::runtime_error("OpenSSL SHA-256 failed");
  NoteKeyId id{};
  std::copy_n(digest, id.size(), id.begin());
  return id;
}

NoteKeyId Ed25519KeyId(std::string_view name, const Ed25519PublicKey& public_key) {
  return KeyIdOf(name, kEd25519SignatureType, public_key);
}

void ValidateKeyName(std::string_view name, std::string_view what) {
  if (const std::string fault = NameFault(name); !fault.empty())
    throw ValidationError(std::string(what) + " " + Quoted(name) + " " + fault);
}

VerifierKey MakeVerifierKey(std::string_view name, const Ed25519PublicKey& public_key) {
  ValidateKeyName(name);
  return VerifierKey{std::string(name), Ed25519KeyId(name, public_key), public_key};
}

VerifierKey ParseVerifierKey(std::string_view vkey) {
  const auto fault = [&](const std::string& why) {
    return ValidationError("verifier key " + Quoted(vkey) + ": " + why);
  };
  const std::size_t first = vkey.find('+');
  const std::size_t second = first == std::string_view::npos ? first : vkey.find('+', first + 1);
  if (second == std::string_view::npos) throw fault("it is not <name>+<key ID>+<key>");
  VerifierKey key;
  key.name = std::string(vkey.substr(0, first));
  if (const std::string name_fault = NameFault(key.name); !name_fault.empty()) throw fault("its name " + name_fault);
  const std::string_view id_hex = vkey.substr(first + 1, second - first - 1);
  if (!ParseKeyIdHex(id_hex, key.key_id))
    throw fault("its key ID " + Quoted(id_hex) + " is not 8 lower-case hex digits");
  const auto bytes = Base64Decode(vkey.substr(second + 1));
  if (!bytes) throw fault("its key is not canonical base64");
  if (bytes->empty()) throw fault("its key is empty");
  key.type = (*bytes)[0];
  if (key.type != kEd25519SignatureType && key.type != kCosignatureV1Type) {
    char type[5];
    std::snprintf(type, sizeof type, "0x%02x", static_cast<unsigned>(key.type));
    throw fault("its key type " + std::string(type) + " is neither Ed25519 (0x01) nor an Ed25519 cosigner (0x04)");
  }
  if (bytes->size() != 1 + key.public_key.size())
    throw fault("its Ed25519 key holds " + std::to_string(bytes->size() - 1) + " bytes, not 32");
  std::copy(bytes->begin() + 1, bytes->end(), key.public_key.begin());
  const NoteKeyId expected = KeyIdOf(key.name, key.type, key.public_key);
  if (key.key_id != expected)
    throw fault("its key ID " + KeyIdHex(key.key_id) + " is not the one its name, type and key give (" +
                KeyIdHex(expected) + ")");
  return key;
}

std::string FormatVerifierKey(const VerifierKey& key) {
  ValidateKeyName(key.name);
  if (key.type != kEd25519SignatureType && key.type != kCosignatureV1Type)
    throw ValidationError("verifier key " + Quoted(KeyLabel(key.name, key.key_id)) + ": its type is not 0x01 or 0x04");
  if (key.key_id != KeyIdOf(key.name, key.type, key.public_key))
    throw ValidationError("verifier key " + Quoted(KeyLabel(key.name, key.key_id)) +
                          ": the key ID is not the one its name, type and key give");
  std::vector<std::uint8_t> bytes{key.type};
  bytes.insert(bytes.end(), key.public_key.begin(), key.public_key.end());
  return key.name + "+" + KeyIdHex(key.key_id) + "+" + Base64Encode(bytes.data(), bytes.size());
}

// ---- Notes ------------------------------------------------------------------

void ValidateNoteText(std::string_view text) {
  if (text.empty()) throw ValidationError("note text is empty");
  if (text.back() != '\n') throw ValidationError("note text does not end in a newline");
  CheckNoteBytes(text, "note text");
}

SignedNote ParseSignedNote(std::string_view note) {
  if (note.empty()) throw ValidationError("signed note is empty");
  CheckNoteBytes(note, "signed note");
  if (note.back() != '\n') throw ValidationError("signed note does not end in a newline");
  // C2SP: the text ends at the last blank line (signature lines are never empty).
  const std::size_t split = note.rfind("\n\n");
  if (split == std::string_view::npos) throw ValidationError("signed note has no blank line before its signatures");
  SignedNote parsed;
  parsed.text = std::string(note.substr(0, split + 1));
  const std::string_view lines = note.substr(split + 2);
  if (lines.empty()) throw ValidationError("signed note has no signature line after its last blank line");
  std::size_t number = 0;
  for (std::size_t start = 0; start < lines.size();) {
    const std::size_t end = lines.find('\n', start);
    const std::string_view line = lines.substr(start, end - start);
    start = end + 1;
    if (++number > kMaxNoteSignatures)
      throw ValidationError("signed note has more than " + std::to_string(kMaxNoteSignatures) + " signature lines");
    const auto fault = [&](const std::string& why) {
      return ValidationError("signature line " + std::to_string(number) + " " + Quoted(line) + ": " + why);
    };
    if (line.substr(0, kEmDashSpace.size()) != kEmDashSpace)
      throw fault("it does not start with an em dash (U+2014) and a space");
    const std::string_view rest = line.substr(kEmDashSpace.size());
    const std::size_t space = rest.find(' ');
    NoteSignature signature;
    signature.name = std::string(rest.substr(0, space));
    if (const std::string name_fault = NameFault(signature.name); !name_fault.empty())
      throw fault("its key name " + name_fault);
    if (space == std::string_view::npos || space + 1 == rest.size())
      throw fault("it has no signature after the key name");
    const auto bytes = Base64Decode(rest.substr(space + 1));
    if (!bytes) throw fault("its signature is not canonical base64");
    if (bytes->size() <= signature.key_id.size())
      throw fault("its signature holds " + std::to_string(bytes->size()) +
                  " bytes, not a 4-byte key ID and a signature");
    std::copy_n(bytes->begin(), signature.key_id.size(), signature.key_id.begin());
    signature.signature.assign(bytes->begin() + signature.key_id.size(), bytes->end());
    parsed.signatures.push_back(std::move(signature));
  }
  return parsed;
}

std::string FormatSignatureLine(const NoteSignature& signature) {
  ValidateKeyName(signature.name);
  if (signature.signature.empty())
    throw ValidationError("signature by " + Quoted(KeyLabel(signature.name, signature.key_id)) + " is empty");
  std::vector<std::uint8_t> bytes(signature.key_id.begin(), signature.key_id.end());
  bytes.insert(bytes.end(), signature.signature.begin(), signature.signature.end());
  return std::string(kEmDashSpace) + signature.name + " " + Base64Encode(bytes.data(), bytes.size()) + "\n";
}

std::string FormatSignedNote(const SignedNote& note) {
  ValidateNoteText(note.text);
  if (note.signatures.empty()) throw ValidationError("signed note has no signature");
  if (note.signatures.size() > kMaxNoteSignatures)
    throw ValidationError("signed note has more than " + std::to_string(kMaxNoteSignatures) + " signatures");
  std::string text = note.text + "\n";
  for (const NoteSignature& signature : note.signatures) text += FormatSignatureLine(signature);
  return text;
}

// ---- Signing ----------------------------------------------------------------

struct NoteSigner::Key {
  Pkey pkey;
};

NoteSigner::NoteSigner(std::unique_ptr<Key> key) : key_(std::move(key)) {
  std::size_t length = public_key_.size();
  if (EVP_PKEY_get_raw_public_key(key_->pkey.get(), public_key_.data(), &length) != 1 || length != public_key_.size())
    throw std::runtime_error("OpenSSL could not give the Ed25519 public key: " + TakeOpenSslReason());
}

NoteSigner::NoteSigner(NoteSigner&&) noexcept = default;
NoteSigner& NoteSigner::operator=(NoteSigner&&) noexcept = default;
NoteSigner::~NoteSigner() = default;

namespace {

Pkey ReadPrivateKey(std::string_view pem, const std::string& what) {
  if (pem.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw ValidationError(what + " is too large to be a key");
  const Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  if (!bio) throw std::runtime_error("OpenSSL could not allocate a memory buffer");
  bool asked_passphrase = false;
  Pkey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, &RefusePassphrase, &asked_passphrase));
  if (key) return key;
  const std::string reason = TakeOpenSslReason();
  if (asked_passphrase) throw ValidationError(what + " holds an encrypted private key; give one without a passphrase");
  if (pem.find("-----BEGIN PUBLIC KEY-----") != std::string_view::npos)
    throw ValidationError(what + " holds a public key, not a private key");
  throw ValidationError(what + " holds no PEM private key (OpenSSL: " + reason + ")");
}

}  // namespace

NoteSigner NoteSigner::Load(std::string_view pem, const std::string& what) {
  Pkey pkey = ReadPrivateKey(pem, what);
  if (EVP_PKEY_get_id(pkey.get()) != EVP_PKEY_ED25519) {
    const char* type = EVP_PKEY_get0_type_name(pkey.get());
    throw ValidationError(what + " holds " + (type ? std::string("a key of type ") + type : "a key of another type") +
                          ", not Ed25519");
  }
  return NoteSigner(std::make_unique<Key>(Key{std::move(pkey)}));
}

NoteSigner NoteSigner::FromPem(std::string_view pem, const std::string& what) { return Load(pem, what); }

NoteSigner NoteSigner::FromPemFile(const std::string& path) {
  const std::string what = "key file " + Quoted(path);
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ValidationError("cannot open " + what + ": " + std::strerror(errno));
  std::string pem;
  char buffer[4096];
  while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
    pem.append(buffer, static_cast<std::size_t>(file.gcount()));
    if (pem.size() > kMaxKeyFileBytes)
      throw ValidationError(what + " is larger than " + std::to_string(kMaxKeyFileBytes) + " bytes: not a key");
  }
  if (file.bad()) throw ValidationError("cannot read " + what);
  return Load(pem, what);
}

std::array<std::uint8_t, 64> NoteSigner::SignBytes(std::string_view message) const {
  const MdCtx ctx = NewMdCtx();
  std::array<std::uint8_t, kEd25519SignatureBytes> signature{};
  std::size_t length = signature.size();
  if (EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key_->pkey.get()) != 1 ||
      EVP_DigestSign(ctx.get(), signature.data(), &length, reinterpret_cast<const unsigned char*>(message.data()),
                     message.size()) != 1 ||
      length != kEd25519SignatureBytes)
    throw std::runtime_error("OpenSSL Ed25519 signing failed: " + TakeOpenSslReason());
  return signature;
}

NoteSignature NoteSigner::Sign(std::string_view name, std::string_view text) const {
  ValidateKeyName(name);
  ValidateNoteText(text);
  const auto bytes = SignBytes(text);
  return NoteSignature{std::string(name), Ed25519KeyId(name, public_key_),
                       std::vector<std::uint8_t>(bytes.begin(), bytes.end())};
}

std::string SignNote(std::string_view text, std::string_view name, const NoteSigner& signer) {
  return FormatSignedNote(SignedNote{std::string(text), {signer.Sign(name, text)}});
}

// ---- Verifying --------------------------------------------------------------

std::string NoteCheck::problem() const {
  const auto labels = [](const auto& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + KeyLabel(item.name, item.key_id);
    return text;
  };
  if (!failed.empty()) return "the signature by " + labels(failed) + " does not verify";
  if (!verified.empty()) return {};
  if (ignored.empty()) return "the note has no signature by a given key";
  return "the note has no signature by a given key (it is signed by " + labels(ignored) + ")";
}

NoteCheck CheckNote(std::string_view note, std::span<const VerifierKey> keys) {
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (keys[i].name == keys[j].name && keys[i].key_id == keys[j].key_id && keys[i].public_key != keys[j].public_key)
        throw ValidationError("two verifier keys named " + Quoted(keys[i].name) + " share key ID " +
                              KeyIdHex(keys[i].key_id) + " with different keys");
  NoteCheck check;
  check.note = ParseSignedNote(note);
  std::vector<const VerifierKey*> seen;
  for (std::size_t i = 0; i < check.note.signatures.size(); ++i) {
    const NoteSignature& signature = check.note.signatures[i];
    const auto key = std::find_if(keys.begin(), keys.end(), [&](const VerifierKey& candidate) {
      return candidate.name == signature.name && candidate.key_id == signature.key_id;
    });
    if (key == keys.end()) {
      check.ignored.push_back(signature);
      continue;
    }
    if (std::any_of(seen.begin(), seen.end(), [&](const VerifierKey* other) { return *other == *key; }))
      throw ValidationError("signature line " + std::to_string(i + 1) + ": key " +
                            Quoted(KeyLabel(key->name, key->key_id)) + " signs the note a second time");
    seen.push_back(&*key);
    const bool holds = key->type == kCosignatureV1Type
                           ? VerifyCosignature(*key, check.note.text, signature.signature)
                           : key->type == kEd25519SignatureType &&
                                 VerifyEd25519(key->public_key, check.note.text, signature.signature);
    (holds ? check.verified : check.failed).push_back(*key);
  }
  return check;
}

}  // namespace act::core
