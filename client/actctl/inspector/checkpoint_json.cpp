#include "inspector/checkpoint_json.hpp"

#include "pg_text.hpp"

namespace actctl::inspector {

nlohmann::json CheckpointJson(const act::CheckpointSummary& checkpoint) {
  return {{"size", checkpoint.size}, {"note", checkpoint.note}, {"created", TimeJsonText(checkpoint.created)}};
}

}  // namespace actctl::inspector
