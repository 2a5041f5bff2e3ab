// The Work page's read (GET /api/work): subscription rows by name, lane and
// blocked, a page at a time (keyset paging by stream name).
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "inspector/answer.hpp"
#include "inspector/inspector.hpp"
#include "inspector/page_sizes.hpp"
#include "inspector/request_params.hpp"
#include "inspector/subscription_row.hpp"

namespace actctl::inspector {

namespace {

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

void AddWorkRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get("/api/work", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&] { return Work(inspector, request); });
  });
}

}  // namespace actctl::inspector
