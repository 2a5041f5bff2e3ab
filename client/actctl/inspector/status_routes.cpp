// The Overview page's reads: whether actions are allowed (GET /api/session),
// the store's figures (GET /api/status) and /metrics in the Prometheus text
// format; each a monitoring call that costs O(work set).
#include <httplib.h>

#include <map>
#include <string>

#include "inspector/answer.hpp"
#include "inspector/checkpoint_json.hpp"
#include "inspector/inspector.hpp"
#include "prometheus_text.hpp"
#include "status_json.hpp"

namespace actctl::inspector {

namespace {

nlohmann::json Status(Inspector& inspector) {
  nlohmann::json status = nlohmann::json::object();
  for (const auto& [name, value] : StatusFields(inspector.monitor.status())) status[name] = value;
  // The cumulative counters (concurrent mode only), summed over their labels:
  // the page turns two readings into a rate.
  std::map<std::string, double> counters;
  for (const act::MetricSample& sample : inspector.monitor.metrics())
    if (sample.metric.ends_with("_total") && sample.value) counters[sample.metric] += *sample.value;
  nlohmann::json checkpoint = nullptr;
  for (const act::StoredCheckpoint& last : inspector.log.checkpoints(1)) checkpoint = CheckpointJson(last);
  return {{"status", std::move(status)}, {"counters", counters}, {"checkpoint", std::move(checkpoint)}};
}

}  // namespace

void AddStatusRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get("/api/session", [&inspector](const httplib::Request&, httplib::Response& response) {
    Answer(response, [&] {
      nlohmann::json session = {{"write", inspector.guard.write()}, {"router", inspector.router}};
      if (inspector.guard.write()) session["token"] = inspector.guard.token();
      return session;
    });
  });
  server.Get("/api/status", [&inspector](const httplib::Request&, httplib::Response& response) {
    Answer(response, [&] { return Status(inspector); });
  });
  server.Get("/metrics", [&inspector](const httplib::Request&, httplib::Response& response) {
    try {
      response.set_content(PrometheusText(inspector.monitor.metrics()), "text/plain; version=0.0.4; charset=utf-8");
    } catch (const std::exception& e) {
      response.status = 503;  // a scrape that fails is a target down, not an empty one
      response.set_content(std::string(e.what()) + "\n", "text/plain; charset=utf-8");
    }
  });
}

}  // namespace actctl::inspector
