#include "act/core/tlog_witness.hpp"

#include <algorithm>

#include "act/core/cosignature.hpp"
#include "act/core/encoding.hpp"
#include "act/core/errors.hpp"
#include "act/core/merkle.hpp"
#include "act/core/text.hpp"

namespace act::core {

namespace {

std::uint64_t ParseOldSize(std::string_view line) {
  const auto fault = [&](const char* why) { return ValidationError("old size line " + Quoted(line) + " " + why); };
  constexpr std::string_view kPrefix = "old ";
  if (line.substr(0, kPrefix.size()) != kPrefix) throw fault("does not start with \"old \"");
  const std::string_view digits = line.substr(kPrefix.size());
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw fault("is not \"old\" and a decimal number");
  if (digits.size() > 1 && digits[0] == '0') throw fault("has a leading zero");
  std::uint64_t size = 0;
  for (char c : digits) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (size > (UINT64_MAX - digit) / 10) throw fault("is out of range");
    size = size * 10 + digit;
  }
  return size;
}

// What the witness keeps and serves to monitors: the checkpoint with the
// log's signatures it verified and its own cosignature; other lines on the
// submitted note (other witnesses', unknown keys') are not its to vouch for.
std::string KeptNote(const NoteCheck& check, const NoteSignature& cosignature) {
  SignedNote kept{check.note.text, {}};
  for (const NoteSignature& signature : check.note.signatures)
    if (std::any_of(check.verified.begin(), check.verified.end(), [&](const VerifierKey& key) {
          return key.name == signature.name && key.key_id == signature.key_id;
        }))
      kept.signatures.push_back(signature);
  kept.signatures.push_back(cosignature);
  return FormatSignedNote(kept);
}

WitnessVerdict Refuse(int status, std::string why) {
  WitnessVerdict verdict;
  verdict.status = status;
  verdict.body = std::move(why) + "\n";
  return verdict;
}

}  // namespace

AddCheckpointRequest ParseAddCheckpoint(std::string_view body) {
  const std::size_t first = body.find('\n');
  if (first == std::string_view::npos) throw ValidationError("the request has no old size line");
  AddCheckpointRequest request;
  request.old_size = ParseOldSize(body.substr(0, first));
  std::size_t start = first + 1;
  for (std::size_t number = 2;; ++number) {
    const std::size_t end = body.find('\n', start);
    if (end == std::string_view::npos) throw ValidationError("the request has no blank line before its checkpoint");
    const std::string_view line = body.substr(start, end - start);
    start = end + 1;
    if (line.empty()) break;
    if (request.proof.size() == kMaxWitnessProofLines)
      throw ValidationError("the request has more than " + std::to_string(kMaxWitnessProofLines) + " proof lines");
    const auto bytes = Base64Decode(line);
    Hash hash{};
    if (!bytes || bytes->size() != hash.size())
      throw ValidationError("proof line " + std::to_string(number) + " " + Quoted(line) +
                            " is not the canonical base64 of 32 bytes");
    std::copy(bytes->begin(), bytes->end(), hash.begin());
    request.proof.push_back(hash);
  }
  request.note = std::string(body.substr(start));
  if (request.note.empty()) throw ValidationError("the request has no checkpoint after its blank line");
  return request;
}

std::string FormatAddCheckpoint(const AddCheckpointRequest& request) {
  std::string body = "old " + std::to_string(request.old_size) + "\n";
  for (const Hash& hash : request.proof) body += Base64Encode(hash) + "\n";
  return body + "\n" + request.note;
}

std::optional<std::string> RequestOrigin(std::string_view body) {
  try {
    return ParseCheckpoint(ParseSignedNote(ParseAddCheckpoint(body).note).text).origin;
  } catch (const ValidationError&) {
    return std::nullopt;
  }
}

WitnessVerdict JudgeAddCheckpoint(std::string_view body, std::span<const VerifierKey> log_keys,
                                  const std::optional<WitnessedCheckpoint>& last, const NoteSigner& signer,
                                  std::string_view witness_name, std::uint64_t now) {
  AddCheckpointRequest request;
  Checkpoint checkpoint;
  try {
    request = ParseAddCheckpoint(body);
    checkpoint = ParseCheckpoint(ParseSignedNote(request.note).text);
  } catch (const ValidationError& e) {
    return Refuse(400, e.what());
  }
  if (log_keys.empty()) return Refuse(404, "unknown log " + Quoted(checkpoint.origin));
  // Only the log's keys: cosignatures by other witnesses on the note are ignored.
  NoteCheck check;
  try {
    check = CheckNote(request.note, log_keys);
  } catch (const ValidationError& e) {
    return Refuse(403, e.what());
  }
  if (!check.ok()) return Refuse(403, "the checkpoint is not signed by the log: " + check.problem());
  if (request.old_size > checkpoint.size)
    return Refuse(400, "old size " + std::to_string(request.old_size) + " is beyond the checkpoint's size " +
                           std::to_string(checkpoint.size));
  const std::uint64_t last_size = last ? last->checkpoint.size : 0;
  if (request.old_size != last_size) {
    WitnessVerdict verdict;
    verdict.status = 409;
    verdict.content_type = "text/x.tlog.size";
    verdict.body = std::to_string(last_size) + "\n";
    return verdict;
  }
  if (checkpoint.size == 0 && checkpoint.root != merkle::EmptyRoot())
    return Refuse(422, "a checkpoint of size 0 must state the empty tree's root");
  if (request.old_size == 0 && !request.proof.empty()) return Refuse(422, "a proof from size 0 must be empty");
  if (last) {
    const merkle::ProofCheck proof = merkle::CheckConsistency(last->checkpoint.size, last->checkpoint.root,
                                                              checkpoint.size, checkpoint.root, request.proof);
    if (!proof.ok())
      return Refuse(422, "the checkpoint is not consistent with the one cosigned at size " +
                             std::to_string(last->checkpoint.size) + ": " + proof.problem);
  }
  WitnessVerdict verdict;
  verdict.status = 200;
  const NoteSignature cosignature = Cosign(signer, witness_name, check.note.text, now);
  verdict.body = FormatSignatureLine(cosignature);
  verdict.accepted = WitnessedCheckpoint{checkpoint, KeptNote(check, cosignature)};
  return verdict;
}

}  // namespace act::core
