#include "store/commit_params.hpp"

namespace act::store_params {
namespace {

nlohmann::json message_json(const Message& event) {
  nlohmann::json element = {{"name", event.name}};
  if (!event.data.is_null()) element["data"] = event.data;  // the server makes a missing one {}
  if (event.pii) element["pii"] = *event.pii;
  if (!event.tags.empty()) element["tags"] = event.tags;
  return element;
}

nlohmann::json messages_json(const std::vector<Message>& events) {
  nlohmann::json array = nlohmann::json::array();
  for (const Message& event : events) array.push_back(message_json(event));
  return array;
}

}  // namespace

db::Params commit(std::string_view stream, const std::vector<Message>& events, const nlohmann::json& meta,
                  std::optional<std::int32_t> expected_version) {
  db::Params params;
  params.text(stream).json(messages_json(events)).json(meta.is_null() ? nlohmann::json::object() : meta)
      .number(expected_version);
  return params;
}

db::Params append(const std::vector<StreamMessage>& events, const std::optional<AppendCondition>& condition,
                  const nlohmann::json& meta) {
  nlohmann::json array = nlohmann::json::array();
  for (const StreamMessage& event : events) {
    nlohmann::json element = message_json(event.message);
    element["stream"] = event.stream;
    array.push_back(std::move(element));
  }
  std::optional<nlohmann::json> condition_json;
  if (condition) condition_json = condition->to_json();
  db::Params params;
  params.json(array).json(condition_json).json(meta.is_null() ? nlohmann::json::object() : meta);
  return params;
}

}  // namespace act::store_params
