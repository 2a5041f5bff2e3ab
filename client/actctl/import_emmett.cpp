// Emmett's PostgreSQL event store (@event-driven-io/emmett-postgresql):
// emt_messages, one partition (Emmett's default is "emt:default"), archived
// messages left out as Emmett's own reads leave them. stream_id is the
// stream; stream_position counts from 1, so the version is one less;
// global_position is the order; message_type is the name. The message id and
// schema version, kept beside the metadata, go into meta as "message_id" and
// "schema_version" (and "message_kind" for a message that is not an event).
#include "import_source.hpp"

namespace actctl {

ImportSource EmmettSource(const std::string& partition) {
  return {"emmett",
          "SELECT global_position AS position, stream_id AS stream, stream_position - 1 AS version, "
          "message_type AS name, message_data AS data, "
          "message_metadata || jsonb_build_object('message_id', message_id, 'schema_version', "
          "message_schema_version) || CASE WHEN message_kind = 'E' THEN '{}'::jsonb "
          "ELSE jsonb_build_object('message_kind', message_kind) END AS meta, "
          "created FROM emt_messages WHERE NOT is_archived AND partition = " +
              QuoteLiteral(partition)};
}

}  // namespace actctl
