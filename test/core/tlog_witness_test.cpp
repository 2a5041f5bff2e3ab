#include "act/core/tlog_witness.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "act/core/cosignature.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"

namespace act::core {
namespace {

// Keys from the seeds of RFC 8032's first and second Ed25519 tests.
constexpr const char* kLogPem =
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END PRIVATE "
    "KEY-----\n";
constexpr const char* kWitnessPem =
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIEzNCJso/5banbbDRuwRTg9bijGfNaumJNqM9u1PuKb7\n-----END PRIVATE "
    "KEY-----\n";
constexpr const char* kOrigin = "example.com/log";
constexpr const char* kWitness = "witness.example/w1";
constexpr std::uint64_t kNow = 1700000000;

Hash Leaf(std::uint64_t i, char salt = 'a') {
  const std::string entry = std::string(1, salt) + std::to_string(i);
  return merkle::LeafHash(std::span(reinterpret_cast<const std::uint8_t*>(entry.data()), entry.size()));
}

// A log of `size` leaves, `salt` telling two logs apart from leaf `fork_at` on.
struct Log {
  merkle::MemoryTree tree;
  Log(std::uint64_t size, char salt = 'a', std::uint64_t fork_at = 0) {
    for (std::uint64_t i = 0; i < size; ++i) tree.Append(Leaf(i, i >= fork_at ? salt : 'a'));
  }
  std::string Note(const NoteSigner& signer, std::uint64_t size) {
    const std::string text = FormatCheckpoint({kOrigin, size, merkle::RootAt(tree, size), {}});
    return SignNote(text, kOrigin, signer);
  }
  std::string Body(const NoteSigner& signer, std::uint64_t old_size, std::uint64_t size) {
    return FormatAddCheckpoint({old_size,
                                old_size == 0 ? merkle::Path{} : merkle::ConsistencyProof(tree, old_size, size),
                                Note(signer, size)});
  }
};

class WitnessTest : public ::testing::Test {
 protected:
  NoteSigner log_ = NoteSigner::FromPem(kLogPem);
  NoteSigner witness_ = NoteSigner::FromPem(kWitnessPem);
  std::vector<VerifierKey> log_keys_{log_.VerifierKeyFor(kOrigin)};

  WitnessVerdict Judge(const std::string& body, const std::optional<WitnessedCheckpoint>& last,
                       std::span<const VerifierKey> keys) {
    return JudgeAddCheckpoint(body, keys, last, witness_, kWitness, kNow);
  }
  WitnessVerdict Judge(const std::string& body, const std::optional<WitnessedCheckpoint>& last) {
    return Judge(body, last, log_keys_);
  }
  // The witness's state after cosigning `size` of `log`.
  WitnessedCheckpoint Seen(Log& log, std::uint64_t size) {
    const WitnessVerdict verdict = Judge(log.Body(log_, 0, size), std::nullopt);
    EXPECT_EQ(verdict.status, 200) << verdict.body;
    return *verdict.accepted;
  }
};

TEST(AddCheckpointBody, RoundTrip) {
  const AddCheckpointRequest request{20, {Leaf(1), Leaf(2)}, "o\n1\nx\n\n\xE2\x80\x94 o AAAA\n"};
  const std::string body = FormatAddCheckpoint(request);
  EXPECT_EQ(body.substr(0, 7), "old 20\n");
  EXPECT_EQ(ParseAddCheckpoint(body), request);
  EXPECT_EQ(ParseAddCheckpoint("old 0\n\nnote\n"), (AddCheckpointRequest{0, {}, "note\n"}));
}

TEST(AddCheckpointBody, MalformedBodiesOnePerLine) {
  const std::string hash = Base64Encode(Leaf(0));
  const auto rejects = [](const std::string& body, const std::string& fragment) {
    try {
      ParseAddCheckpoint(body);
      ADD_FAILURE() << "accepted: " << body;
    } catch (const ValidationError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  rejects("", "no old size line");
  rejects("old 1", "no old size line");
  rejects("new 1\n\nnote\n", "does not start with \"old \"");
  rejects("old\n\nnote\n", "does not start with \"old \"");
  rejects("old \n\nnote\n", "is not \"old\" and a decimal number");
  rejects("old -1\n\nnote\n", "is not \"old\" and a decimal number");
  rejects("old 01\n\nnote\n", "has a leading zero");
  rejects("old 1 \n\nnote\n", "is not \"old\" and a decimal number");
  rejects("old 18446744073709551616\n\nnote\n", "is out of range");
  rejects("old 1\n" + hash + "\n", "no blank line");
  rejects("old 1\n" + hash + "\n\n", "no checkpoint after its blank line");
  rejects("old 1\n" + hash.substr(1) + "\n\nnote\n", "proof line 2");
  rejects("old 1\nAAAA\n\nnote\n", "not the canonical base64 of 32 bytes");
  std::string many = "old 1\n";
  for (int i = 0; i < 64; ++i) many += hash + "\n";
  rejects(many + "\nnote\n", "more than 63 proof lines");
}

TEST_F(WitnessTest, FirstCheckpointIsCosigned) {
  Log log(5);
  const WitnessVerdict verdict = Judge(log.Body(log_, 0, 5), std::nullopt);
  ASSERT_EQ(verdict.status, 200) << verdict.body;
  ASSERT_TRUE(verdict.accepted);
  EXPECT_EQ(verdict.accepted->checkpoint.size, 5u);
  // The answer is a signature line that, added to the checkpoint, verifies
  // under the witness's cosigner key.
  const std::string text = FormatCheckpoint({kOrigin, 5, log.tree.Root(), {}});
  const std::vector<VerifierKey> keys{MakeCosignerKey(kWitness, witness_.public_key())};
  const NoteCheck check = CheckNote(text + "\n" + verdict.body, keys);
  EXPECT_TRUE(check.ok()) << check.problem();
  EXPECT_EQ(ParseCosignature(check.note.signatures[0].signature)->timestamp, kNow);
  // The kept note: the log's signature and the cosignature.
  std::vector<VerifierKey> both = keys;
  both.push_back(log_keys_[0]);
  EXPECT_EQ(CheckNote(verdict.accepted->note, both).verified.size(), 2u);
}

TEST_F(WitnessTest, AGrowingLogIsCosignedWithAProof) {
  Log log(20);
  const WitnessedCheckpoint seen = Seen(log, 7);
  const WitnessVerdict verdict = Judge(log.Body(log_, 7, 20), seen);
  EXPECT_EQ(verdict.status, 200) << verdict.body;
  EXPECT_EQ(verdict.accepted->checkpoint.size, 20u);
  // The same checkpoint again: old size = size, same root, empty proof.
  const WitnessedCheckpoint twenty = *verdict.accepted;
  EXPECT_EQ(Judge(log.Body(log_, 20, 20), twenty).status, 200);
}

TEST_F(WitnessTest, AnotherOldSizeIsAConflictNamingTheWitnessSize) {
  Log log(20);
  const WitnessedCheckpoint seen = Seen(log, 7);
  for (std::uint64_t old_size : {0u, 6u, 8u}) {
    const WitnessVerdict verdict = Judge(log.Body(log_, old_size, 20), seen);
    EXPECT_EQ(verdict.status, 409) << old_size;
    EXPECT_EQ(verdict.body, "7\n");
    EXPECT_EQ(verdict.content_type, "text/x.tlog.size");
    EXPECT_FALSE(verdict.accepted);
  }
  // Without state, any old size but 0 is a conflict naming 0.
  EXPECT_EQ(Judge(log.Body(log_, 7, 20), std::nullopt).body, "0\n");
}

TEST_F(WitnessTest, AForkedLogIsRefused) {
  Log log(20);
  const WitnessedCheckpoint seen = Seen(log, 10);
  // Same origin, same key, a different leaf 4: its proof from 10 leads to
  // another root at 10 than the one the witness cosigned.
  Log fork(20, 'b', 4);
  WitnessVerdict verdict = Judge(fork.Body(log_, 10, 20), seen);
  EXPECT_EQ(verdict.status, 422) << verdict.body;
  EXPECT_FALSE(verdict.accepted);
  // At the same size: another root.
  verdict = Judge(fork.Body(log_, 10, 10), seen);
  EXPECT_EQ(verdict.status, 422) << verdict.body;
  // A fork past the cosigned size is only growth.
  Log later(20, 'b', 10);
  EXPECT_EQ(Judge(later.Body(log_, 10, 20), seen).status, 200);
}

TEST_F(WitnessTest, BadProofsAreUnprocessable) {
  Log log(20);
  const WitnessedCheckpoint seen = Seen(log, 7);
  AddCheckpointRequest request = ParseAddCheckpoint(log.Body(log_, 7, 20));
  for (std::size_t i = 0; i < request.proof.size(); ++i) {
    AddCheckpointRequest garbled = request;
    garbled.proof[i][0] ^= 1;
    EXPECT_EQ(Judge(FormatAddCheckpoint(garbled), seen).status, 422) << "hash " << i;
  }
  AddCheckpointRequest shorter = request;
  shorter.proof.pop_back();
  EXPECT_EQ(Judge(FormatAddCheckpoint(shorter), seen).status, 422);
  AddCheckpointRequest longer = request;
  longer.proof.push_back(Leaf(99));
  EXPECT_EQ(Judge(FormatAddCheckpoint(longer), seen).status, 422);
  // From size 0 the proof must be empty.
  AddCheckpointRequest from_zero = ParseAddCheckpoint(log.Body(log_, 0, 20));
  from_zero.proof.push_back(Leaf(0));
  EXPECT_EQ(Judge(FormatAddCheckpoint(from_zero), std::nullopt).status, 422);
  // Size 0 must state the empty root.
  const std::string empty_wrong = SignNote(FormatCheckpoint({kOrigin, 0, Leaf(0), {}}), kOrigin, log_);
  EXPECT_EQ(Judge(FormatAddCheckpoint({0, {}, empty_wrong}), std::nullopt).status, 422);
  const std::string empty_right = SignNote(FormatCheckpoint({kOrigin, 0, merkle::EmptyRoot(), {}}), kOrigin, log_);
  EXPECT_EQ(Judge(FormatAddCheckpoint({0, {}, empty_right}), std::nullopt).status, 200);
}

TEST_F(WitnessTest, ASmallerSizeIsABadRequest) {
  Log log(20);
  const WitnessedCheckpoint seen = Seen(log, 10);
  const WitnessVerdict verdict = Judge(FormatAddCheckpoint({10, {}, log.Note(log_, 5)}), seen);
  EXPECT_EQ(verdict.status, 400) << verdict.body;
}

TEST_F(WitnessTest, SignaturesAndOrigins) {
  Log log(5);
  const std::string body = log.Body(log_, 0, 5);
  // No keys for the origin: unknown log.
  EXPECT_EQ(Judge(body, std::nullopt, {}).status, 404);
  // Signed by another key than the log's.
  const std::vector<VerifierKey> other{witness_.VerifierKeyFor(kOrigin)};
  EXPECT_EQ(Judge(body, std::nullopt, other).status, 403);
  // The log's signature broken.
  AddCheckpointRequest request = ParseAddCheckpoint(body);
  SignedNote note = ParseSignedNote(request.note);
  note.signatures[0].signature[10] ^= 1;
  request.note = FormatSignedNote(note);
  EXPECT_EQ(Judge(FormatAddCheckpoint(request), std::nullopt).status, 403);
  // The checkpoint text changed under the signature.
  request = ParseAddCheckpoint(body);
  note = ParseSignedNote(request.note);
  note.text = FormatCheckpoint({kOrigin, 5, Leaf(1), {}});
  request.note = FormatSignedNote(note);
  EXPECT_EQ(Judge(FormatAddCheckpoint(request), std::nullopt).status, 403);
  // Not a note, not a checkpoint.
  EXPECT_EQ(Judge("old 0\n\nnot a note\n", std::nullopt).status, 400);
  EXPECT_EQ(Judge("old 0\n\n" + SignNote("one line\n", kOrigin, log_), std::nullopt).status, 400);
  EXPECT_FALSE(RequestOrigin("old 0\n\nnot a note\n"));
  EXPECT_EQ(RequestOrigin(body), std::optional<std::string>(kOrigin));
  // Other signatures on the note are ignored: another witness's cosignature.
  note = ParseSignedNote(log.Note(log_, 5));
  note.signatures.push_back(Cosign(log_, "other.example/w", note.text, kNow));
  EXPECT_EQ(Judge(FormatAddCheckpoint({0, {}, FormatSignedNote(note)}), std::nullopt).status, 200);
}

}  // namespace
}  // namespace act::core
