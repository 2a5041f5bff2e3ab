// The inspector's actions: a dry run (GET /api/actions/NAME/preview, the
// rows that would change) and the action itself (POST /api/actions/NAME),
// which applies only to the streams the operator confirmed, only when the
// dry run's count still holds, and leaves an audit record. Whether a
// request may change anything at all is decided before routing (serve.cpp).
#include <httplib.h>

#include <fmt/format.h>
#include <chrono>

#include "act/store.hpp"
#include "inspector/action_request.hpp"
#include "inspector/answer.hpp"
#include "inspector/inspector.hpp"
#include "inspector/request_params.hpp"
#include "inspector/subscription_row.hpp"

namespace actctl::inspector {

namespace {

OperatorValues Values(Inspector& inspector, const ActionRequest& action) {
  OperatorValues values;
  if (action.priority) values.priority = *action.priority;
  // Read as the server reads a timestamptz, as actctl defer --until is.
  if (action.until) values.until = inspector.store.server_time(*action.until);
  return values;
}

// The query string of a dry run as the body of its action, less "confirmed".
nlohmann::json PreviewBody(const httplib::Request& request, Operator op) {
  nlohmann::json body = {{"streams", TextParams(request, "stream")}};
  if (op == Operator::kPrioritize) {
    const std::optional<std::string> text = TextParam(request, "priority");
    if (!text) throw BadRequest("prioritize: parameter priority is missing");
    try {
      std::size_t used = 0;
      const long long priority = std::stoll(*text, &used);
      if (used != text->size()) throw std::invalid_argument("trailing text");
      body["priority"] = priority;
    } catch (const std::logic_error&) {
      throw BadRequest(fmt::format("prioritize: parameter priority: \"{}\" is not an integer", *text));
    }
  }
  if (op == Operator::kDefer) body["until"] = TextParam(request, "until").value_or("");
  return body;
}

nlohmann::json Preview(Inspector& inspector, const httplib::Request& request, const std::string& name) {
  const std::optional<Operator> op = OperatorNamed(name);
  const ActionRequest action = ParseAction(name, op ? PreviewBody(request, *op) : nlohmann::json::object(), true);
  const std::vector<act::Subscription> rows =
      RowsThatChange(inspector.store, action.op, act::StreamFilter::named(action.streams), Values(inspector, action));
  nlohmann::json json = nlohmann::json::array();
  const auto now = std::chrono::system_clock::now();
  for (const act::Subscription& row : rows) json.push_back(SubscriptionRow(row, now));
  return {{"action", name}, {"count", rows.size()}, {"rows", std::move(json)}};
}

}  // namespace

void AddActionRoutes(httplib::Server& server, Inspector& inspector) {
  server.Get(R"(/api/actions/([a-z]+)/preview)",
             [&inspector](const httplib::Request& request, httplib::Response& response) {
               Answer(response, [&] { return Preview(inspector, request, request.matches[1]); });
             });
  server.Post(R"(/api/actions/([a-z]+))", [&inspector](const httplib::Request& request, httplib::Response& response) {
    Answer(response, [&]() -> nlohmann::json {
      nlohmann::json body;
      try {
        body = nlohmann::json::parse(request.body);
      } catch (const nlohmann::json::parse_error&) {
        throw BadRequest("an action's body is not JSON");
      }
      const ActionRequest action = ParseAction(request.matches[1], body, false);
      const OperatorValues values = Values(inspector, action);
      const act::StreamFilter selector = act::StreamFilter::named(action.streams);
      // The rows may have moved since the dry run: act only on what the operator saw.
      const std::size_t now = RowsThatChange(inspector.store, action.op, selector, values).size();
      if (static_cast<std::int64_t>(now) != action.confirmed)
        throw BadRequest(
            fmt::format("{}: {} subscriptions would change now, {} were confirmed; nothing was changed, "
                        "review the dry run again",
                        action.name, now, action.confirmed));
      const std::int32_t changed = ApplyOperator(inspector.store, action.op, selector, values);
      nlohmann::json record = {
          {"action", action.name}, {"streams", action.streams}, {"confirmed", action.confirmed}, {"changed", changed}};
      if (action.priority) record["priority"] = *action.priority;
      if (action.until) record["until"] = *action.until;
      const std::optional<std::string> audit_error = inspector.audit.record(record, request.remote_addr);
      return {{"changed", changed}, {"audit_error", audit_error ? nlohmann::json(*audit_error) : nlohmann::json()}};
    });
  });
}

}  // namespace actctl::inspector
