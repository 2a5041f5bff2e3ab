// The Partitions page's read (GET /api/partitions) when the inspector's
// database is a router (docs/scale-out.md): act.status_by_partition(), a
// row per partition, one that cannot be reached reported with its error.
// A router has none of pg_act's own calls: the other views' reads are
// refused with a pointer here, and /metrics (the router's act.metrics())
// still answers.
#include <httplib.h>

#include <string>

#include "inspector/answer.hpp"
#include "inspector/inspector.hpp"
#include "status_json.hpp"

namespace actctl::inspector {

namespace {

constexpr int kConflict = 409;  // the request is fine; this database is not what it needs

nlohmann::json Partitions(Inspector& inspector) {
  nlohmann::json rows = nlohmann::json::array();
  for (const act::PartitionStatus& partition : inspector.monitor.status_by_partition()) {
    nlohmann::json row = {{"partition", partition.partition},
                          {"reachable", partition.reachable},
                          {"error", partition.error ? nlohmann::json(*partition.error) : nlohmann::json(nullptr)}};
    if (partition.status)
      for (const auto& [name, value] : StatusFields(*partition.status)) row[name] = value;
    rows.push_back(std::move(row));
  }
  return {{"partitions", std::move(rows)}};
}

}  // namespace

bool RefusedOnRouter(const Inspector& inspector, const std::string& path, httplib::Response& response) {
  if (!inspector.router || !path.starts_with("/api/") || path == "/api/session" || path == "/api/partitions")
    return false;
  SendJson(response, kConflict,
           {{"error", "this database is a pg_act router: it holds no events; its partitions are on /partitions"}});
  return true;
}

void AddPartitionRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get("/api/partitions", [&inspector](const httplib::Request&, httplib::Response& response) {
    if (!inspector.router) {
      SendJson(response, kConflict, {{"error", "this database is not a pg_act router"}});
      return;
    }
    Answer(response, [&] { return Partitions(inspector); });
  });
}

}  // namespace actctl::inspector
