#include "inspector/action_request.hpp"

#include <fmt/format.h>

#include <array>
#include <set>
#include <utility>

#include "inspector/request_params.hpp"

namespace actctl::inspector {

namespace {

constexpr std::array<std::pair<const char*, Operator>, 5> kOperators = {{{"unblock", Operator::kUnblock},
                                                                         {"reset", Operator::kReset},
                                                                         {"release", Operator::kRelease},
                                                                         {"prioritize", Operator::kPrioritize},
                                                                         {"defer", Operator::kDefer}}};

}  // namespace

std::optional<Operator> OperatorNamed(const std::string& name) {
  for (const auto& [known, op] : kOperators)
    if (name == known) return op;
  return std::nullopt;
}

ActionRequest ParseAction(const std::string& name, const nlohmann::json& body, bool dry_run) {
  ActionRequest action;
  const std::optional<Operator> op = OperatorNamed(name);
  if (!op) throw BadRequest(fmt::format("no action \"{}\" (unblock, reset, release, prioritize, defer)", name));
  action.op = *op;
  action.name = name;
  if (!body.is_object()) throw BadRequest("an action is a JSON object");
  std::set<std::string> allowed = {"streams"};
  if (!dry_run) allowed.insert("confirmed");
  if (action.op == Operator::kPrioritize) allowed.insert("priority");
  if (action.op == Operator::kDefer) allowed.insert("until");
  for (const auto& [key, value] : body.items())
    if (!allowed.contains(key)) throw BadRequest(fmt::format("{}: unknown key \"{}\"", name, key));
  for (const std::string& key : allowed)
    if (!body.contains(key)) throw BadRequest(fmt::format("{}: \"{}\" is missing", name, key));

  const nlohmann::json& streams = body["streams"];
  if (!streams.is_array() || streams.empty() || streams.size() > kMostStreamsPerAction)
    throw BadRequest(fmt::format("{}: \"streams\" is an array of 1 to {} stream names", name, kMostStreamsPerAction));
  for (const nlohmann::json& stream : streams) {
    if (!stream.is_string() || stream.get<std::string>().empty())
      throw BadRequest(fmt::format("{}: \"streams\" holds non-empty stream names only, not {}", name, stream.dump()));
    action.streams.push_back(stream.get<std::string>());
  }
  if (!dry_run) {
    const nlohmann::json& confirmed = body["confirmed"];
    if (!confirmed.is_number_integer() || confirmed.get<std::int64_t>() < 0)
      throw BadRequest(fmt::format("{}: \"confirmed\" is the dry run's count, a whole number", name));
    action.confirmed = confirmed.get<std::int64_t>();
  }
  if (action.op == Operator::kPrioritize) {
    const nlohmann::json& priority = body["priority"];
    if (!priority.is_number_integer() || priority.get<std::int64_t>() < INT32_MIN ||
        priority.get<std::int64_t>() > INT32_MAX)
      throw BadRequest(fmt::format("{}: \"priority\" is a 32-bit integer, not {}", name, priority.dump()));
    action.priority = priority.get<std::int32_t>();
  }
  if (action.op == Operator::kDefer) {
    const nlohmann::json& until = body["until"];
    if (!until.is_string() || until.get<std::string>().empty())
      throw BadRequest(fmt::format("{}: \"until\" is a time (a timestamptz), not {}", name, until.dump()));
    action.until = until.get<std::string>();
  }
  return action;
}

}  // namespace actctl::inspector
