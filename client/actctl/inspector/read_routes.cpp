// The inspector's reads: GET /api/... (JSON for the pages) and /metrics.
// Every read is bounded: a page of events or rows (keyset paging by id or
// by stream name, never OFFSET) or a monitoring call that costs O(work set).
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "act/errors.hpp"
#include "act/stored_event.hpp"
#include "inspector/answer.hpp"
#include "inspector/checkpoint_json.hpp"
#include "inspector/event_json.hpp"
#include "inspector/inspector.hpp"
#include "inspector/request_params.hpp"
#include "inspector/subscription_row.hpp"
#include "pg_text.hpp"
#include "prometheus_text.hpp"
#include "status_json.hpp"

namespace actctl::inspector {

namespace {

constexpr std::int32_t kEventsPerPage = 50;
constexpr std::int32_t kMostEventsPerPage = 500;
constexpr std::int32_t kRowsPerPage = 100;
constexpr std::int32_t kMostRowsPerPage = 1000;

// Newest first, `limit` of them before the id `before`; asks for one more
// to know whether an older page follows.
nlohmann::json EventPage(act::Store& store, act::Query query, std::int32_t limit) {
  query.backward = true;
  query.limit = limit + 1;
  nlohmann::json events = nlohmann::json::array();
  std::optional<std::int64_t> last_shown;
  bool more = false;
  store.query_stored(query, [&](const act::StoredEvent& event) {
    if (static_cast<std::int32_t>(events.size()) == limit) {
      more = true;
      return;
    }
    events.push_back(EventJson(event));
    last_shown = event.id;
  });
  return {{"events", std::move(events)}, {"next_before", more ? Json(last_shown) : nlohmann::json(nullptr)}};
}

nlohmann::json Status(Inspector& inspector) {
  nlohmann::json status = nlohmann::json::object();
  for (const auto& [name, value] : StatusFields(inspector.monitor.status())) status[name] = value;
  // The cumulative counters (concurrent mode only), summed over their labels:
  // the page turns two readings into a rate.
  std::map<std::string, double> counters;
  for (const act::MetricSample& sample : inspector.monitor.metrics())
    if (sample.metric.ends_with("_total") && sample.value) counters[sample.metric] += *sample.value;
  nlohmann::json checkpoint = nullptr;
  for (const act::CheckpointSummary& last : inspector.monitor.checkpoints(1)) checkpoint = CheckpointJson(last);
  return {{"status", std::move(status)}, {"counters", counters}, {"checkpoint", std::move(checkpoint)}};
}

nlohmann::json Log(Inspector& inspector, const httplib::Request& request) {
  act::Query query;
  query.stream = TextParam(request, "stream");
  query.stream_exact = !FlagParam(request, "regex");
  if (const std::vector<std::string> names = TextParams(request, "name"); !names.empty()) query.names = names;
  query.created_after = TimeParam(request, "from");
  query.created_before = TimeParam(request, "to");
  query.correlation = TextParam(request, "correlation");
  query.before = IdParam(request, "before");
  return EventPage(inspector.store, query, LimitParam(request, "limit", kEventsPerPage, kMostEventsPerPage));
}

// One correlation's events oldest first, at most kMostEventsPerPage (the
// page says when there are more): act.query's correlation filter is indexed.
nlohmann::json Correlation(Inspector& inspector, const std::string& correlation) {
  act::Query query;
  query.correlation = correlation;
  query.limit = kMostEventsPerPage + 1;
  nlohmann::json events = nlohmann::json::array();
  bool more = false;
  inspector.store.query_stored(query, [&](const act::StoredEvent& event) {
    if (static_cast<std::int32_t>(events.size()) == kMostEventsPerPage)
      more = true;
    else
      events.push_back(EventJson(event));
  });
  return {{"correlation", correlation}, {"events", std::move(events)}, {"more", more}};
}

nlohmann::json Stream(Inspector& inspector, const httplib::Request& request, const std::string& stream) {
  act::Query query;
  query.stream = stream;
  query.before = IdParam(request, "before");
  query.with_snaps = true;
  query.after = 0;  // with_snaps alone on one stream would start at its latest snapshot
  nlohmann::json page =
      EventPage(inspector.store, query, LimitParam(request, "limit", kEventsPerPage, kMostEventsPerPage));
  page["stream"] = stream;
  page["version"] = inspector.store.version(stream);
  nlohmann::json chain = nullptr;
  for (const act::ChainCheck& check : inspector.store.verify(stream))
    chain = {{"events", check.events}, {"valid", check.valid}, {"first_bad_version", Json(check.first_bad_version)}};
  page["chain"] = std::move(chain);
  // The rows whose source may read this stream (act.query_streams' source_matches).
  act::StreamFilter readers;
  readers.source_matches = std::vector<std::string>{stream};
  nlohmann::json rows = nlohmann::json::array();
  const auto now = std::chrono::system_clock::now();
  for (const act::Subscription& row : inspector.store.query_streams(readers, std::nullopt, kRowsPerPage))
    rows.push_back(SubscriptionRow(row, now));
  page["readers"] = std::move(rows);
  return page;
}

nlohmann::json Work(Inspector& inspector, const httplib::Request& request) {
  act::StreamFilter filter;
  filter.stream = TextParam(request, "stream");
  filter.stream_exact = !FlagParam(request, "regex");
  filter.lane = TextParam(request, "lane");
  if (FlagParam(request, "blocked")) filter.blocked = true;
  const std::int32_t limit = LimitParam(request, "limit", kRowsPerPage, kMostRowsPerPage);
  const std::vector<act::Subscription> found =
      inspector.store.query_streams(filter, TextParam(request, "after"), limit + 1);
  const auto shown = std::min(found.size(), static_cast<std::size_t>(limit));
  nlohmann::json rows = nlohmann::json::array();
  const auto now = std::chrono::system_clock::now();
  for (std::size_t i = 0; i < shown; ++i) rows.push_back(SubscriptionRow(found[i], now));
  // One row more than the page: a next page starts after the last row shown.
  const bool more = found.size() > shown;
  return {{"rows", std::move(rows)},
          {"next_after", more ? nlohmann::json(found[shown - 1].stream) : nlohmann::json(nullptr)}};
}

}  // namespace

void AddReadRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get("/api/session", [&inspector](const httplib::Request&, httplib::Response& response) {
    Answer(response, [&] {
      nlohmann::json session = {{"write", inspector.guard.write()}};
      if (inspector.guard.write()) session["token"] = inspector.guard.token();
      return session;
    });
  });
  server.Get("/api/status", [&inspector](const httplib::Request&, httplib::Response& response) {
    Answer(response, [&] { return Status(inspector); });
  });
  server.Get("/api/log", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Log(inspector, request); });
  });
  server.Get(R"(/api/streams/(.+))", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Stream(inspector, request, request.matches[1]); });
  });
  server.Get(R"(/api/correlation/(.+))", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Correlation(inspector, request.matches[1]); });
  });
  server.Get("/api/work", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Work(inspector, request); });
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
