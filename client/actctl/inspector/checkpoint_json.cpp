#include "inspector/checkpoint_json.hpp"

#include "pg_text.hpp"

namespace actctl::inspector {

nlohmann::json CheckpointJson(const act::StoredCheckpoint& checkpoint) {
  return {{"size", checkpoint.size},
          {"note", checkpoint.note.value_or("")},
          {"created", TimeJsonText(checkpoint.created)}};
}

}  // namespace actctl::inspector
