// The Verification page's reads: the checkpoints kept (GET /api/verify),
// act.verify_log over a range of the tree (GET /api/verify/log), and an
// event's inclusion proof in the newest checkpoint's tree, checked here
// and handed to the page, which checks it again itself (GET
// /api/verify/proof). Each checkpoint's signature lines come as fields of
// their own, checked with the keys act.log_keys registers. A check
// recomputes each event of its range, so one request covers at most
// kMostEntriesPerCheck entries and the page walks the tree range by range.
#include <httplib.h>

#include <fmt/format.h>
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "act/core/encoding.hpp"
#include "act/core/merkle.hpp"
#include "inspector/answer.hpp"
#include "inspector/checkpoint_json.hpp"
#include "inspector/inspector.hpp"
#include "inspector/note_signatures.hpp"
#include "inspector/request_params.hpp"
#include "pg_text.hpp"
#include "stored_hash.hpp"

namespace actctl::inspector {

namespace {

constexpr std::int32_t kCheckpointsShown = 20;
constexpr std::int64_t kMostEntriesPerCheck = 100'000;

nlohmann::json Checkpoints(Inspector& inspector) {
  std::vector<act::core::VerifierKey> keys;
  for (const std::string& vkey : inspector.log.verifier_keys()) keys.push_back(act::core::ParseVerifierKey(vkey));
  nlohmann::json rows = nlohmann::json::array();
  for (const act::StoredCheckpoint& checkpoint : inspector.log.checkpoints(kCheckpointsShown)) {
    nlohmann::json row = CheckpointJson(checkpoint);
    row["signatures"] = NoteSignaturesJson(checkpoint.note.value_or(""), keys);
    rows.push_back(std::move(row));
  }
  return {{"checkpoints", std::move(rows)}, {"sealed_size", Json(inspector.monitor.status().sealed_size)}};
}

nlohmann::json VerifyLog(Inspector& inspector, const httplib::Request& request) {
  const std::int64_t sealed = inspector.monitor.status().sealed_size.value_or(0);
  const std::int64_t from = SizeParam(request, "from").value_or(0);
  const std::int64_t to = SizeParam(request, "to").value_or(std::min(sealed, from + kMostEntriesPerCheck));
  if (from > to) throw BadRequest(fmt::format("parameter from: {} is beyond to ({})", from, to));
  if (to - from > kMostEntriesPerCheck)
    throw BadRequest(
        fmt::format("parameters from and to: at most {} entries per check, not {}", kMostEntriesPerCheck, to - from));
  nlohmann::json problems = nlohmann::json::array();
  for (const act::LogProblem& problem : inspector.log.verify_log(from, to))
    problems.push_back({{"position", problem.position}, {"id", Json(problem.id)}, {"problem", problem.problem}});
  return {{"from", from}, {"to", to}, {"sealed_size", sealed}, {"problems", std::move(problems)}};
}

nlohmann::json Proof(Inspector& inspector, const httplib::Request& request) {
  const std::optional<std::int64_t> id = IdParam(request, "id");
  if (!id) throw BadRequest("parameter id: the event id to prove is missing");
  // One snapshot: the checkpoint, the proof and the entry of one tree.
  act::LogTransaction log = inspector.log.snapshot();
  const std::vector<act::StoredCheckpoint> newest = log.checkpoints_below(std::numeric_limits<std::int64_t>::max(), 1);
  if (newest.empty()) throw BadRequest("no checkpoint kept yet (act.checkpoint()): nothing to prove against");
  const act::StoredCheckpoint& checkpoint = newest.front();
  const act::InclusionProof proof = log.inclusion_proof(*id, checkpoint.size);
  const std::vector<act::LogEntry> entry = log.entries(proof.leaf_index, proof.leaf_index + 1);
  if (entry.size() != 1) throw std::runtime_error(fmt::format("act.log_entries has no entry {}", proof.leaf_index));
  act::core::merkle::Path path;
  for (const std::string& hex : proof.path)
    path.push_back(StoredHash<std::runtime_error>(hex, "a hash of the proof's path"));
  const act::core::merkle::ProofCheck check = act::core::merkle::CheckInclusion(
      act::core::merkle::LeafHash(StoredHash<std::runtime_error>(entry.front().hash, "the entry")),
      static_cast<std::uint64_t>(proof.leaf_index), static_cast<std::uint64_t>(checkpoint.size), path,
      StoredHash<std::runtime_error>(checkpoint.root, "the checkpoint's root"));
  return {{"id", *id},
          {"leaf_index", proof.leaf_index},
          {"tree_size", checkpoint.size},
          {"entry", entry.front().hash.value_or("")},
          {"path", proof.path},
          {"root", checkpoint.root.value_or("")},
          {"server", {{"holds", check.ok()}, {"problem", check.problem}}}};
}

}  // namespace

void AddVerifyRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get("/api/verify", [&inspector](const httplib::Request&, httplib::Response& response) {
    Answer(response, [&] { return Checkpoints(inspector); });
  });
  server.Get("/api/verify/log", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return VerifyLog(inspector, request); });
  });
  server.Get("/api/verify/proof", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Proof(inspector, request); });
  });
}

}  // namespace actctl::inspector
