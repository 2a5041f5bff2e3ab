#include "act/core/cosignature.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"

namespace act::core {
namespace {

// The private key of RFC 8032's first Ed25519 test (seed 9d61b19d...), PKCS #8.
constexpr const char* kRfc8032Pem =
    "-----BEGIN PRIVATE KEY-----\n"
    "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
    "-----END PRIVATE KEY-----\n";
constexpr const char* kWitness = "witness.example.com/w1";
// The checkpoint of C2SP tlog-cosignature's example, and its time.
constexpr const char* kText = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
constexpr std::uint64_t kTime = 1679315147;
// Computed with Python's `cryptography` package, an Ed25519 implementation
// that shares nothing with OpenSSL: SHA-256(name || 0x0A || 0x04 || key)[:4]
// is 7e6f4aaa, and Ed25519 is deterministic, so the line is fixed.
constexpr const char* kVkey = "witness.example.com/w1+7e6f4aaa+BNdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea";
constexpr const char* kLine =
    "\xE2\x80\x94 witness.example.com/w1 "
    "fm9KqgAAAABkGFDL+TPmh4BYuAjsYRoqMJCWb/gWJaeRF/kmm5tlCr9sJ57DLErur7K0yDXc2ArN+TIuotuB/HbuL3AJsp3bv/aNCQ==\n";

std::string Note(const std::string& lines) { return std::string(kText) + "\n" + lines; }

TEST(Cosignature, TheKnownKeyAndLine) {
  const NoteSigner signer = NoteSigner::FromPem(kRfc8032Pem);
  const VerifierKey key = MakeCosignerKey(kWitness, signer.public_key());
  EXPECT_EQ(key.type, kCosignatureV1Type);
  EXPECT_EQ(FormatVerifierKey(key), kVkey);
  EXPECT_EQ(ParseVerifierKey(kVkey), key);
  EXPECT_EQ(FormatSignatureLine(Cosign(signer, kWitness, kText, kTime)), kLine);
}

TEST(Cosignature, TheSignedMessage) {
  EXPECT_EQ(CosignedMessage(kText, kTime), std::string("cosignature/v1\ntime 1679315147\n") + kText);
  EXPECT_EQ(CosignedMessage(kText, 0), std::string("cosignature/v1\ntime 0\n") + kText);
  EXPECT_THROW(CosignedMessage(kText, kMaxCosignatureTime + 1), ValidationError);
  EXPECT_THROW(CosignedMessage("no newline", kTime), ValidationError);
}

TEST(Cosignature, TheSpecExampleLineHoldsATimestampedSignature) {
  // The witness line of C2SP tlog-cosignature's example (its key is not given):
  // a key ID, then 8 bytes of time, the example's 1679315147, then 64 bytes.
  const SignedNote note = ParseSignedNote(Note(
      "\xE2\x80\x94 witness.example.com/w1 "
      "jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n"));
  ASSERT_EQ(note.signatures.size(), 1u);
  const auto cosignature = ParseCosignature(note.signatures[0].signature);
  ASSERT_TRUE(cosignature);
  EXPECT_EQ(cosignature->timestamp, kTime);
  EXPECT_EQ(FormatCosignature(*cosignature), note.signatures[0].signature);
}

TEST(Cosignature, TheKnownLineVerifies) {
  const VerifierKey key = ParseVerifierKey(kVkey);
  const NoteCheck check = CheckNote(Note(kLine), std::vector<VerifierKey>{key});
  EXPECT_TRUE(check.ok()) << check.problem();
  ASSERT_EQ(check.verified.size(), 1u);
  EXPECT_EQ(check.verified[0], key);
}

TEST(Cosignature, AnyChangedPayloadByteFails) {
  const std::vector<VerifierKey> keys{ParseVerifierKey(kVkey)};
  const SignedNote note = ParseSignedNote(Note(kLine));
  for (std::size_t i = 0; i < note.signatures[0].signature.size(); ++i) {
    SignedNote changed = note;
    changed.signatures[0].signature[i] ^= 0x01;
    const NoteCheck check = CheckNote(FormatSignedNote(changed), keys);
    EXPECT_FALSE(check.ok()) << "byte " << i;
    EXPECT_EQ(check.failed.size(), 1u) << "byte " << i << " (the time, bytes 0-7, is signed too)";
  }
}

TEST(Cosignature, AnyChangedTextByteFails) {
  const std::vector<VerifierKey> keys{ParseVerifierKey(kVkey)};
  const std::string text = kText;
  for (std::size_t i = 0; i < text.size() - 1; ++i) {
    std::string changed = text;
    changed[i] = changed[i] == 'A' ? 'B' : 'A';
    const NoteCheck check = CheckNote(changed + "\n" + kLine, keys);
    EXPECT_EQ(check.failed.size(), 1u) << "byte " << i;
  }
}

TEST(Cosignature, APayloadOfAnotherLengthOrTimeFails) {
  const NoteSigner signer = NoteSigner::FromPem(kRfc8032Pem);
  const VerifierKey key = MakeCosignerKey(kWitness, signer.public_key());
  NoteSignature line = Cosign(signer, kWitness, kText, kTime);
  const std::vector<std::uint8_t> payload = line.signature;
  EXPECT_TRUE(VerifyCosignature(key, kText, payload));
  EXPECT_FALSE(VerifyCosignature(key, kText, std::span(payload).first(71)));
  std::vector<std::uint8_t> longer = payload;
  longer.push_back(0);
  EXPECT_FALSE(VerifyCosignature(key, kText, longer));
  // Only the signature, without the time: what a plain note signature is.
  EXPECT_FALSE(VerifyCosignature(key, kText, std::span(payload).subspan(8)));
  // A time beyond 2^63 - 1 is refused even before the signature is checked.
  std::vector<std::uint8_t> late = payload;
  late[0] = 0x80;
  EXPECT_FALSE(ParseCosignature(late));
  EXPECT_FALSE(VerifyCosignature(key, kText, late));
}

TEST(Cosignature, NotAPlainSignatureAndViceVersa) {
  const NoteSigner signer = NoteSigner::FromPem(kRfc8032Pem);
  const VerifierKey cosigner = MakeCosignerKey(kWitness, signer.public_key());
  const VerifierKey plain = signer.VerifierKeyFor(kWitness);
  EXPECT_NE(cosigner.key_id, plain.key_id);  // the type byte is in the key ID
  // The same key's plain signature of the text, under the cosigner's key ID:
  // the cosigner key fails it (no time, wrong message).
  NoteSignature forged = signer.Sign(kWitness, kText);
  forged.key_id = cosigner.key_id;
  NoteCheck check = CheckNote(FormatSignedNote(SignedNote{kText, {forged}}), std::vector<VerifierKey>{cosigner});
  EXPECT_EQ(check.failed.size(), 1u);
  // A cosignature under the plain key's ID: the plain key fails it.
  NoteSignature cosignature = Cosign(signer, kWitness, kText, kTime);
  cosignature.key_id = plain.key_id;
  check = CheckNote(FormatSignedNote(SignedNote{kText, {cosignature}}), std::vector<VerifierKey>{plain});
  EXPECT_EQ(check.failed.size(), 1u);
  // Each verifies under its own key, and a key of the other type ignores it.
  check = CheckNote(Note(kLine), std::vector<VerifierKey>{plain});
  EXPECT_FALSE(check.ok());
  EXPECT_EQ(check.ignored.size(), 1u);
  // A key of type 0x04 never checks a line as a plain signature.
  EXPECT_FALSE(VerifyCosignature(plain, kText, Cosign(signer, kWitness, kText, kTime).signature));
}

TEST(Cosignature, ALogSignatureAndTwoCosignatures) {
  const NoteSigner log = NoteSigner::FromPem(kRfc8032Pem);
  std::vector<NoteSigner> witnesses;
  // C2SP: one key per cosigner. The seeds of RFC 8032's second and third tests.
  witnesses.push_back(NoteSigner::FromPem(
      "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIEzNCJso/5banbbDRuwRTg9bijGfNaumJNqM9u1PuKb7\n-----END "
      "PRIVATE KEY-----\n"));
  witnesses.push_back(NoteSigner::FromPem(
      "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIMWqjfQ/n4N77bdELzHct7Fm04U1B28JS4XOOi4LRFj3\n-----END "
      "PRIVATE KEY-----\n"));
  const std::string origin = "example.com/behind-the-sofa";
  SignedNote note{kText, {log.Sign(origin, kText)}};
  note.signatures.push_back(Cosign(witnesses[0], "w1.example", kText, kTime));
  note.signatures.push_back(Cosign(witnesses[1], "w2.example", kText, kTime + 1));
  const std::vector<VerifierKey> keys{log.VerifierKeyFor(origin),
                                      MakeCosignerKey("w1.example", witnesses[0].public_key()),
                                      MakeCosignerKey("w2.example", witnesses[1].public_key())};
  const NoteCheck check = CheckNote(FormatSignedNote(note), keys);
  EXPECT_TRUE(check.ok()) << check.problem();
  EXPECT_EQ(check.verified.size(), 3u);
  // One witness's key under the other's name: another key ID, so ignored.
  const std::vector<VerifierKey> swapped{MakeCosignerKey("w1.example", witnesses[1].public_key())};
  EXPECT_EQ(CheckNote(FormatSignedNote(note), swapped).ignored.size(), 3u);
}

TEST(Cosignature, CosignRefusesBadInput) {
  const NoteSigner signer = NoteSigner::FromPem(kRfc8032Pem);
  EXPECT_THROW(Cosign(signer, "a b", kText, kTime), ValidationError);
  EXPECT_THROW(Cosign(signer, kWitness, "", kTime), ValidationError);
  EXPECT_THROW(Cosign(signer, kWitness, kText, kMaxCosignatureTime + 1), ValidationError);
  EXPECT_THROW(MakeCosignerKey("", signer.public_key()), ValidationError);
}

TEST(Cosignature, VerifierKeysOfType4) {
  const std::string key = "BNdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea";
  EXPECT_NO_THROW(ParseVerifierKey("witness.example.com/w1+7e6f4aaa+" + key));
  // The key ID of type 0x01 for the same name and key is not this key's.
  const NoteSigner signer = NoteSigner::FromPem(kRfc8032Pem);
  const NoteKeyId plain = Ed25519KeyId(kWitness, signer.public_key());
  char hex[9];
  std::snprintf(hex, sizeof hex, "%02x%02x%02x%02x", plain[0], plain[1], plain[2], plain[3]);
  EXPECT_THROW(ParseVerifierKey(std::string("witness.example.com/w1+") + hex + "+" + key), ValidationError);
  // Type 0x04 with a key of 31 bytes.
  EXPECT_THROW(ParseVerifierKey("witness.example.com/w1+7e6f4aaa+BNdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1E="),
               ValidationError);
}

}  // namespace
}  // namespace act::core
