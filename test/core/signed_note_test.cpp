#include "act/core/signed_note.hpp"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "act/core/checkpoint.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"

namespace act::core {
namespace {

// The example of C2SP signed-note.
constexpr const char* kExampleVkey = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
constexpr const char* kExampleText = "This is an example message.\n";
constexpr const char* kExampleLine =
    "\xE2\x80\x94 example.com/foo "
    "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n";
const std::string kDash = "\xE2\x80\x94 ";

std::string ExampleNote() { return std::string(kExampleText) + "\n" + kExampleLine; }

// ---- Keys made here, as PEM text -------------------------------------------

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

std::string Pem(EVP_PKEY* key, bool private_key = true, const char* passphrase = nullptr) {
  const std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  int written = 0;
  if (!private_key)
    written = PEM_write_bio_PUBKEY(bio.get(), key);
  else if (passphrase)
    written = PEM_write_bio_PKCS8PrivateKey(bio.get(), key, EVP_aes_256_cbc(), passphrase,
                                            static_cast<int>(std::strlen(passphrase)), nullptr, nullptr);
  else
    written = PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  EXPECT_EQ(written, 1);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

Pkey Generate(const char* type) {
  Pkey key(EVP_PKEY_Q_keygen(nullptr, nullptr, type));
  EXPECT_TRUE(key) << type;
  return key;
}

std::string FreshEd25519Pem() { return Pem(Generate("ED25519").get()); }

// ---- Helpers ----------------------------------------------------------------

template <typename Call>
void ExpectRejected(Call call, const std::string& fragment, const std::string& input) {
  try {
    call();
    ADD_FAILURE() << "accepted: " << input;
  } catch (const ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "message: " << e.what();
    EXPECT_STREQ(e.code(), sqlstate::kInvalidParameterValue);
  }
}

std::string KeyIdHex(const NoteKeyId& id) {
  char hex[9];
  std::snprintf(hex, sizeof hex, "%02x%02x%02x%02x", id[0], id[1], id[2], id[3]);
  return hex;
}

// ---- The C2SP example -------------------------------------------------------

TEST(SignedNote, TheSpecExampleVerifierKey) {
  const VerifierKey key = ParseVerifierKey(kExampleVkey);
  EXPECT_EQ(key.name, "example.com/foo");
  EXPECT_EQ(KeyIdHex(key.key_id), "530d903a");
  EXPECT_EQ(KeyIdHex(Ed25519KeyId(key.name, key.public_key)), "530d903a");
  EXPECT_EQ(FormatVerifierKey(key), kExampleVkey);
  EXPECT_EQ(MakeVerifierKey("example.com/foo", key.public_key), key);
}

TEST(SignedNote, TheSpecExampleVerifies) {
  const VerifierKey key = ParseVerifierKey(kExampleVkey);
  const NoteCheck check = CheckNote(ExampleNote(), std::vector<VerifierKey>{key});
  EXPECT_TRUE(check.ok()) << check.problem();
  EXPECT_EQ(check.problem(), "");
  EXPECT_EQ(check.verified, std::vector<VerifierKey>{key});
  EXPECT_TRUE(check.failed.empty());
  EXPECT_TRUE(check.ignored.empty());
  EXPECT_EQ(check.note.text, kExampleText);
  ASSERT_EQ(check.note.signatures.size(), 1u);
  EXPECT_EQ(check.note.signatures[0].name, "example.com/foo");
  EXPECT_EQ(check.note.signatures[0].key_id, key.key_id);
  EXPECT_EQ(check.note.signatures[0].signature.size(), 64u);
  EXPECT_EQ(FormatSignedNote(check.note), ExampleNote());
  EXPECT_EQ(FormatSignatureLine(check.note.signatures[0]), kExampleLine);
}

TEST(SignedNote, TheSpecExampleFailsWithAnyTextByteChanged) {
  const std::vector<VerifierKey> keys{ParseVerifierKey(kExampleVkey)};
  const std::string text = kExampleText;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {  // the final newline stays a newline
    std::string changed = text;
    changed[i] = changed[i] == 'x' ? 'y' : 'x';
    const NoteCheck check = CheckNote(changed + "\n" + kExampleLine, keys);
    EXPECT_FALSE(check.ok()) << "byte " << i;
    EXPECT_EQ(check.failed, keys) << "byte " << i;
    EXPECT_EQ(check.problem(), "the signature by example.com/foo+530d903a does not verify");
  }
}

TEST(SignedNote, TheSpecExampleFailsWithAnySignatureByteChanged) {
  const std::vector<VerifierKey> keys{ParseVerifierKey(kExampleVkey)};
  const SignedNote note = ParseSignedNote(ExampleNote());
  for (std::size_t i = 0; i < note.signatures[0].signature.size(); ++i) {
    SignedNote changed = note;
    changed.signatures[0].signature[i] ^= 0x01;
    const NoteCheck check = CheckNote(FormatSignedNote(changed), keys);
    EXPECT_FALSE(check.ok()) << "byte " << i;
    EXPECT_EQ(check.failed, keys) << "byte " << i;
  }
}

TEST(SignedNote, AChangedKeyIdIsAnotherKey) {
  const std::vector<VerifierKey> keys{ParseVerifierKey(kExampleVkey)};
  SignedNote changed = ParseSignedNote(ExampleNote());
  changed.signatures[0].key_id[3] ^= 0x01;
  const NoteCheck check = CheckNote(FormatSignedNote(changed), keys);
  EXPECT_FALSE(check.ok());
  EXPECT_TRUE(check.failed.empty());
  EXPECT_EQ(check.ignored.size(), 1u);
  EXPECT_EQ(check.problem(), "the note has no signature by a given key (it is signed by example.com/foo+530d903b)");
}

TEST(SignedNote, NoGivenKeyNoVerification) {
  const NoteCheck check = CheckNote(ExampleNote(), {});
  EXPECT_FALSE(check.ok());
  EXPECT_EQ(check.ignored.size(), 1u);
  EXPECT_NE(check.problem().find("example.com/foo+530d903a"), std::string::npos) << check.problem();
}

// ---- Unknown keys are ignored, known ones must hold --------------------------

TEST(SignedNote, UnknownKeysAreIgnored) {
  const VerifierKey example = ParseVerifierKey(kExampleVkey);
  const NoteSigner other = NoteSigner::FromPem(FreshEd25519Pem());
  SignedNote note = ParseSignedNote(ExampleNote());
  note.signatures.push_back(other.Sign("witness.example/w1", kExampleText));
  // Same name, another ID; same ID, another name: both are other keys (C2SP).
  NoteSignature same_name = other.Sign("example.com/foo", kExampleText);
  note.signatures.push_back(same_name);
  NoteSignature same_id = note.signatures[0];
  same_id.name = "example.com/bar";
  note.signatures.push_back(same_id);
  NoteSignature other_type{"witness.example/w2", {1, 2, 3, 4}, std::vector<std::uint8_t>(72, 7)};
  note.signatures.push_back(other_type);
  const NoteCheck check = CheckNote(FormatSignedNote(note), std::vector<VerifierKey>{example});
  EXPECT_TRUE(check.ok()) << check.problem();
  EXPECT_EQ(check.verified, std::vector<VerifierKey>{example});
  EXPECT_EQ(check.ignored.size(), 4u);
}

TEST(SignedNote, AFailingKnownKeyRejectsTheNote) {
  const VerifierKey example = ParseVerifierKey(kExampleVkey);
  const NoteSigner other = NoteSigner::FromPem(FreshEd25519Pem());
  const VerifierKey witness = other.VerifierKeyFor("witness.example/w1");
  SignedNote note = ParseSignedNote(ExampleNote());
  NoteSignature bad = other.Sign("witness.example/w1", "Another message.\n");
  note.signatures.push_back(bad);
  const NoteCheck check = CheckNote(FormatSignedNote(note), std::vector<VerifierKey>{example, witness});
  EXPECT_FALSE(check.ok());
  EXPECT_EQ(check.verified, std::vector<VerifierKey>{example});
  EXPECT_EQ(check.failed, std::vector<VerifierKey>{witness});
  EXPECT_EQ(check.problem(), "the signature by witness.example/w1+" + KeyIdHex(witness.key_id) + " does not verify");
}

TEST(SignedNote, AKnownKeySigningTwiceIsMalformed) {
  const std::vector<VerifierKey> keys{ParseVerifierKey(kExampleVkey)};
  ExpectRejected([&] { CheckNote(ExampleNote() + kExampleLine, keys); }, "a second time", "two example lines");
  // Unknown keys may repeat: they are not looked at.
  EXPECT_EQ(CheckNote(ExampleNote() + kExampleLine, {}).ignored.size(), 2u);
}

TEST(SignedNote, CollidingGivenKeysAreRefused) {
  VerifierKey example = ParseVerifierKey(kExampleVkey);
  VerifierKey forged = example;
  forged.public_key[0] ^= 0x01;
  ExpectRejected(
      [&] {
        CheckNote(ExampleNote(), std::vector<VerifierKey>{example, forged});
      },
      "share key ID", "two keys, one name and ID");
  // The same key twice is one key.
  EXPECT_TRUE(CheckNote(ExampleNote(), std::vector<VerifierKey>{example, example}).ok());
}

// ---- Signing ------------------------------------------------------------------

TEST(SignedNote, SignAndVerifyWithAFreshKey) {
  const std::string pem = FreshEd25519Pem();
  const NoteSigner signer = NoteSigner::FromPem(pem);
  const VerifierKey key = signer.VerifierKeyFor("pg_act/orders");
  EXPECT_EQ(key.public_key, signer.public_key());
  EXPECT_EQ(key.key_id, Ed25519KeyId("pg_act/orders", signer.public_key()));
  EXPECT_EQ(ParseVerifierKey(FormatVerifierKey(key)), key);

  const std::string body = FormatCheckpoint({"pg_act/orders", 7, merkle::EmptyRoot(), {}});
  const std::string note = SignNote(body, "pg_act/orders", signer);
  EXPECT_EQ(note.substr(0, body.size() + 1), body + "\n");
  const NoteCheck check = CheckNote(note, std::vector<VerifierKey>{key});
  EXPECT_TRUE(check.ok()) << check.problem();
  EXPECT_EQ(check.note.text, body);
  EXPECT_EQ(ParseCheckpoint(check.note.text).size, 7u);
  // Ed25519 is deterministic: the same text, the same signature.
  EXPECT_EQ(SignNote(body, "pg_act/orders", signer), note);
  // Another name is another key ID: the signature is not by this key.
  const NoteCheck renamed = CheckNote(note, std::vector<VerifierKey>{signer.VerifierKeyFor("pg_act/other")});
  EXPECT_FALSE(renamed.ok());
  EXPECT_EQ(renamed.ignored.size(), 1u);
  // Another key under the same name: likewise.
  const VerifierKey stranger = NoteSigner::FromPem(FreshEd25519Pem()).VerifierKeyFor("pg_act/orders");
  EXPECT_FALSE(CheckNote(note, std::vector<VerifierKey>{stranger}).ok());
}

TEST(SignedNote, TwoSignersOneNote) {
  const NoteSigner log = NoteSigner::FromPem(FreshEd25519Pem());
  const NoteSigner witness = NoteSigner::FromPem(FreshEd25519Pem());
  const std::string body = "pg_act/orders\n1\n" + Base64Encode(merkle::LeafHash(Hash{})) + "\n";
  SignedNote note = ParseSignedNote(SignNote(body, "pg_act/orders", log));
  note.signatures.push_back(witness.Sign("witness.example/w1", body));
  const std::vector<VerifierKey> keys{log.VerifierKeyFor("pg_act/orders"),
                                      witness.VerifierKeyFor("witness.example/w1")};
  const NoteCheck check = CheckNote(FormatSignedNote(note), keys);
  EXPECT_TRUE(check.ok()) << check.problem();
  EXPECT_EQ(check.verified, keys);
}

TEST(SignedNote, SignerFromAFile) {
  const std::string pem = FreshEd25519Pem();
  char path[] = "/tmp/signed_note_test.XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::ofstream(path, std::ios::binary) << pem;
  EXPECT_EQ(NoteSigner::FromPemFile(path).public_key(), NoteSigner::FromPem(pem).public_key());
  std::ofstream(path, std::ios::binary) << "not a key\n";
  ExpectRejected([&] { NoteSigner::FromPemFile(path); },
                 std::string("key file \"") + path + "\" holds no PEM private key", "a file without a key");
  std::remove(path);
  ExpectRejected([&] { NoteSigner::FromPemFile(path); }, "cannot open key file", "a missing file");
}

TEST(SignedNote, SignerRefusesOtherKeys) {
  const auto refuses = [](const std::string& pem, const std::string& fragment) {
    ExpectRejected([&] { NoteSigner::FromPem(pem); }, fragment, pem);
  };
  refuses(Pem(Generate("X25519").get()), "a key of type X25519, not Ed25519");
  refuses(Pem(Generate("ED448").get()), "a key of type ED448, not Ed25519");
  refuses(Pem(Pkey(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")).get()), "a key of type EC, not Ed25519");
  refuses(Pem(Generate("ED25519").get(), false), "holds a public key, not a private key");
  refuses(Pem(Generate("ED25519").get(), true, "secret"), "encrypted");
  refuses("", "holds no PEM private key");
  refuses("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "holds no PEM private key");
  refuses("not a key", "holds no PEM private key");
}

TEST(SignedNote, SignRefusesBadInput) {
  const NoteSigner signer = NoteSigner::FromPem(FreshEd25519Pem());
  const auto refuses = [&](const std::string& name, const std::string& text, const std::string& fragment) {
    ExpectRejected([&] { signer.Sign(name, text); }, fragment, name + " / " + text);
  };
  refuses("o", "", "note text is empty");
  refuses("o", "no newline", "does not end in a newline");
  refuses("o", "tab\there\n", "control character 0x09");
  refuses("o", "cr\r\n", "control character 0x0d");
  refuses("o", "bad \xFF utf-8\n", "not UTF-8");
  refuses("", "text\n", "key name \"\" is empty");
  refuses("a+b", "text\n", "holds a '+'");
  refuses("a b", "text\n", "holds a space (U+0020)");
  refuses(
      "a\xC2\xA0"
      "b",
      "text\n", "holds a space (U+00A0)");
  refuses(
      "a\xE3\x80\x80"
      "b",
      "text\n", "holds a space (U+3000)");
  refuses("a\nb", "text\n", "holds a space (U+000A)");
  refuses(
      "a\x01"
      "b",
      "text\n", "holds a control character (U+0001)");
  refuses(
      "a\x7F"
      "b",
      "text\n", "holds a control character (U+007F)");
  refuses("a\xFF", "text\n", "is not UTF-8");
  ExpectRejected([&] { signer.VerifierKeyFor("a b"); }, "holds a space", "VerifierKeyFor(\"a b\")");
  ExpectRejected([&] { SignNote("text\n", "a+b", signer); }, "holds a '+'", "SignNote with a bad name");
  // Blank lines and a non-ASCII name are fine.
  EXPECT_TRUE(CheckNote(SignNote("a\n\nb\n\n", "пример.example/ключ", signer),
                        std::vector<VerifierKey>{signer.VerifierKeyFor("пример.example/ключ")})
                  .ok());
}

// ---- Malformed verifier keys: one per line ------------------------------------

TEST(SignedNote, ParseVerifierKeyRejectsMalformedKeys) {
  const std::string id = "530d903a";
  const std::string key = "AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k";
  const auto rejects = [](const std::string& vkey, const std::string& fragment) {
    ExpectRejected([&] { ParseVerifierKey(vkey); }, fragment, vkey);
  };
  rejects("", "is not <name>+<key ID>+<key>");
  rejects("example.com/foo", "is not <name>+<key ID>+<key>");
  rejects("example.com/foo+" + id, "is not <name>+<key ID>+<key>");
  rejects("+" + id + "+" + key, "its name is empty");
  rejects("example.com/ foo+" + id + "+" + key, "its name holds a space (U+0020)");
  rejects("example.com/\tfoo+" + id + "+" + key, "its name holds a space (U+0009)");
  rejects(
      "example.com/\xE2\x80\x83"
      "foo+" +
          id + "+" + key,
      "its name holds a space (U+2003)");
  rejects(
      "example.com/\xC0\xAF"
      "foo+" +
          id + "+" + key,
      "its name is not UTF-8");
  rejects("example.com/foo++" + key, "key ID \"\" is not 8 lower-case hex digits");
  rejects("example.com/foo+530D903A+" + key, "key ID \"530D903A\" is not 8 lower-case hex digits");
  rejects("example.com/foo+530d903+" + key, "is not 8 lower-case hex digits");
  rejects("example.com/foo+530d903a0+" + key, "is not 8 lower-case hex digits");
  rejects("example.com/foo+530d903g+" + key, "is not 8 lower-case hex digits");
  rejects("example.com/foo+" + id + "+", "its key is empty");
  rejects("example.com/foo+" + id + "+" + key.substr(0, 43), "not canonical base64");
  rejects("example.com/foo+" + id + "+" + key + "=", "not canonical base64");
  rejects("example.com/foo+" + id + "+ " + key, "not canonical base64");
  rejects("example.com/foo+" + id + "+" + key + "\n", "not canonical base64");
  rejects("example.com/foo+" + id + "+AO" + key.substr(2), "key type 0x00 is neither Ed25519 (0x01) nor an Ed25519 cosigner (0x04)");
  rejects("example.com/foo+" + id + "+Aukye" + key.substr(5), "key type 0x02 is neither Ed25519 (0x01) nor an Ed25519 cosigner (0x04)");
  rejects("example.com/foo+" + id + "+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U0=", "holds 31 bytes, not 32");
  rejects("example.com/foo+" + id + "+" + key + "AAAA", "holds 35 bytes, not 32");
  rejects("example.com/foo+530d903b+" + key, "key ID 530d903b is not the one its name, type and key give (530d903a)");
  rejects("example.com/bar+" + id + "+" + key, "key ID 530d903a is not the one");
  VerifierKey wrong = ParseVerifierKey(kExampleVkey);
  wrong.key_id[0] ^= 1;
  ExpectRejected([&] { FormatVerifierKey(wrong); }, "key ID is not the one", "FormatVerifierKey, wrong ID");
  wrong = ParseVerifierKey(kExampleVkey);
  wrong.name = "a+b";
  ExpectRejected([&] { FormatVerifierKey(wrong); }, "holds a '+'", "FormatVerifierKey, bad name");
}

// ---- Malformed notes: one per line -------------------------------------------

TEST(SignedNote, ParseSignedNoteRejectsMalformedNotes) {
  const std::string text = kExampleText;
  const std::string sig =
      "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=";
  const std::string line = kDash + "example.com/foo " + sig + "\n";
  const auto rejects = [](const std::string& note, const std::string& fragment) {
    ExpectRejected([&] { ParseSignedNote(note); }, fragment, note);
    ExpectRejected([&] { CheckNote(note, std::vector<VerifierKey>{ParseVerifierKey(kExampleVkey)}); }, fragment, note);
  };
  rejects("", "signed note is empty");
  rejects(text, "no blank line before its signatures");
  rejects(text + line, "no blank line before its signatures");
  rejects(text + "\n", "no signature line after its last blank line");
  rejects(text + "\n" + line + "\n", "no signature line after its last blank line");
  rejects(text + "\n" + line.substr(0, line.size() - 1), "does not end in a newline");
  rejects(text + "\n" + line + line.substr(0, line.size() - 1), "does not end in a newline");
  rejects("This is\tan example message.\n\n" + line, "control character 0x09 at byte 7");
  rejects(text + "\n" + line.substr(0, line.size() - 1) + "\r\n", "control character 0x0d");
  rejects("This is \xFF example message.\n\n" + line, "not UTF-8 (at byte 8)");
  rejects("This is \xED\xA0\x80 surrogate.\n\n" + line, "not UTF-8");
  rejects(text + "\n" + "- example.com/foo " + sig + "\n", "does not start with an em dash (U+2014) and a space");
  rejects(text + "\n" + "\xE2\x80\x94" + "example.com/foo " + sig + "\n", "does not start with an em dash");
  rejects(text + "\n" + "\xE2\x80\x93 example.com/foo " + sig + "\n", "does not start with an em dash");  // en dash
  rejects(text + "\n" + " " + line, "does not start with an em dash");
  rejects(text + "\n" + kDash + " example.com/foo " + sig + "\n", "its key name is empty");
  rejects(text + "\n" + kDash + "example.com/foo+x " + sig + "\n", "its key name holds a '+'");
  rejects(text + "\n" + kDash +
              "example.com/\xC2\xA0"
              "foo " +
              sig + "\n",
          "its key name holds a space (U+00A0)");
  rejects(text + "\n" + kDash + "example.com/foo\n", "no signature after the key name");
  rejects(text + "\n" + kDash + "example.com/foo \n", "no signature after the key name");
  rejects(text + "\n" + kDash + "example.com/foo  " + sig + "\n", "not canonical base64");
  rejects(text + "\n" + kDash + "example.com/foo " + sig + " \n", "not canonical base64");
  rejects(text + "\n" + kDash + "example.com/foo " + sig.substr(0, sig.size() - 1) + "\n", "not canonical base64");
  rejects(text + "\n" + kDash + "example.com/foo " + sig.substr(0, sig.size() - 2) + "R=\n", "not canonical base64");
  rejects(text + "\n" + kDash + "example.com/foo " + "Uw2QOg==\n",
          "holds 4 bytes, not a 4-byte key ID and a signature");
  rejects(text + "\n" + line + "junk\n", "signature line 2 \"junk\"");
  std::string many = text + "\n";
  for (std::size_t i = 0; i <= kMaxNoteSignatures; ++i) many += line;
  rejects(many, "more than 100 signature lines");
}

TEST(SignedNote, ParseFindsTheTextAtTheLastBlankLine) {
  const std::string sig =
      "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=";
  const std::string line = kDash + "example.com/foo " + sig + "\n";
  for (const std::string& text : std::vector<std::string>{"a\n\nb\n", "a\n\n\n", "\n", "a\n" + line}) {
    const SignedNote note = ParseSignedNote(text + "\n" + line);
    EXPECT_EQ(note.text, text);
    EXPECT_EQ(note.signatures.size(), 1u);
    EXPECT_EQ(FormatSignedNote(note), text + "\n" + line);
  }
  std::string most = "text\n\n";
  for (std::size_t i = 0; i < kMaxNoteSignatures; ++i) most += line;
  EXPECT_EQ(ParseSignedNote(most).signatures.size(), kMaxNoteSignatures);
}

TEST(SignedNote, FormatRefusesWhatWouldNotParse) {
  const SignedNote example = ParseSignedNote(ExampleNote());
  const auto refuses = [](const SignedNote& note, const std::string& fragment) {
    ExpectRejected([&] { FormatSignedNote(note); }, fragment, note.text);
  };
  refuses({"", example.signatures}, "note text is empty");
  refuses({"no newline", example.signatures}, "does not end in a newline");
  refuses({"a\tb\n", example.signatures}, "control character");
  refuses({kExampleText, {}}, "has no signature");
  refuses({kExampleText, std::vector<NoteSignature>(kMaxNoteSignatures + 1, example.signatures[0])}, "more than 100");
  NoteSignature unnamed = example.signatures[0];
  unnamed.name = "";
  refuses({kExampleText, {unnamed}}, "key name \"\" is empty");
  NoteSignature empty = example.signatures[0];
  empty.signature.clear();
  refuses({kExampleText, {empty}}, "signature by \"example.com/foo+530d903a\" is empty");
}

}  // namespace
}  // namespace act::core
