// The Verification page's reads: the checkpoints kept (GET /api/verify) and
// act.verify_log over a range of the tree (GET /api/verify/log). A check
// recomputes each event of its range, so one request covers at most
// kMostEntriesPerCheck entries and the page walks the tree range by range.
#include <httplib.h>

#include <fmt/format.h>
#include <algorithm>

#include "inspector/answer.hpp"
#include "inspector/checkpoint_json.hpp"
#include "inspector/inspector.hpp"
#include "inspector/request_params.hpp"
#include "pg_text.hpp"

namespace actctl::inspector {

namespace {

constexpr std::int32_t kCheckpointsShown = 20;
constexpr std::int64_t kMostEntriesPerCheck = 100'000;

nlohmann::json Checkpoints(Inspector& inspector) {
  nlohmann::json rows = nlohmann::json::array();
  for (const act::StoredCheckpoint& checkpoint : inspector.log.checkpoints(kCheckpointsShown))
    rows.push_back(CheckpointJson(checkpoint));
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

}  // namespace

void AddVerifyRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get("/api/verify", [&inspector](const httplib::Request&, httplib::Response& response) {
    Answer(response, [&] { return Checkpoints(inspector); });
  });
  server.Get("/api/verify/log", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return VerifyLog(inspector, request); });
  });
}

}  // namespace actctl::inspector
