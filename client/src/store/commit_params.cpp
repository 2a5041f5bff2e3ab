#include "store/commit_params.hpp"

namespace act::store_params {
namespace {

nlohmann::json messages_json(const std::vector<Message>& events) {
  nlohmann::json array = nlohmann::json::array();
  for (const Message& event : events) {
    nlohmann::json element = {{"name", event.name}};
    if (!event.data.is_null()) element["data"] = event.data;  // the server makes a missing one {}
    if (event.pii) element["pii"] = *event.pii;
    array.push_back(std::move(element));
  }
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

}  // namespace act::store_params
