#include "inspector/event_json.hpp"

#include "pg_text.hpp"

namespace actctl::inspector {

nlohmann::json EventJson(const act::StoredEvent& event) {
  return {{"id", event.id},           {"stream", event.stream},
          {"version", event.version}, {"name", event.name},
          {"data", event.data},       {"meta", event.meta},
          {"pii", Json(event.pii)},   {"created", TimeJsonText(event.created)}};
}

}  // namespace actctl::inspector
