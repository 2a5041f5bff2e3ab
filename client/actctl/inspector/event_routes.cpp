// The reads of events: the Log (GET /api/log), a Stream (GET
// /api/streams/NAME) and a Correlation (GET /api/correlation/ID). Each is a
// page of events (keyset paging by id, never OFFSET) and, for a stream, the
// subscriptions that read it.
#include <httplib.h>

#include <chrono>
#include <string>
#include <vector>

#include "act/stored_event.hpp"
#include "inspector/answer.hpp"
#include "inspector/event_json.hpp"
#include "inspector/inspector.hpp"
#include "inspector/page_sizes.hpp"
#include "inspector/request_params.hpp"
#include "inspector/subscription_row.hpp"
#include "pg_text.hpp"

namespace actctl::inspector {

namespace {

// Newest first, `limit` of them before the id `before` (and after
// `query.after`, the bottom of a scan window); asks for one more to know
// whether an older page follows. A page that ran out inside a window goes
// on below it: `next_before` is the window's bottom and `scanned_from`
// says how far down this page looked.
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
  nlohmann::json page = {{"events", std::move(events)}, {"scanned_from", nullptr}};
  if (more) {
    page["next_before"] = Json(last_shown);
  } else if (query.after && *query.after > 0) {
    page["next_before"] = *query.after + 1;
    page["scanned_from"] = *query.after + 1;
  } else {
    page["next_before"] = nullptr;
  }
  return page;
}

// A filter no index serves (a stream pattern, names, a time range) would
// read back through the whole log for a page of rare matches: such a
// request reads at most `window` events (kScanWindow unless the request
// asks), and its page says where it stopped. An exact stream and a
// correlation are read by index.
void BoundScan(act::Store& store, act::Query& query, std::int64_t window) {
  const bool by_index = (query.stream && query.stream_exact) || query.correlation;
  const bool filtered = query.stream || query.names || query.created_after || query.created_before;
  if (by_index || !filtered) return;
  const std::int64_t top = query.before ? *query.before : store.max_event_id() + 1;
  if (top - 1 > window) query.after = top - 1 - window;
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
  BoundScan(inspector.store, query, LimitParam(request, "window", kScanWindow, kMostScanWindow));
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

}  // namespace

void AddEventRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get("/api/log", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Log(inspector, request); });
  });
  server.Get(R"(/api/streams/(.+))", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Stream(inspector, request, request.matches[1]); });
  });
  server.Get(R"(/api/correlation/(.+))", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Correlation(inspector, request.matches[1]); });
  });
}

}  // namespace actctl::inspector
