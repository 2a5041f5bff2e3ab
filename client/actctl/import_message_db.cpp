// Message DB (@eventide/message-db): message_store.messages. The stream name
// is kept whole ("account-123": its category is what precedes the first
// dash, which pg_act selects with the pattern '^account-'); position is the
// version (both count from 0); global_position is the order; type is the
// name; the message id, which Message DB keeps beside the metadata, goes into
// meta as "message_id". time is UTC without a zone.
#include "import_source.hpp"

namespace actctl {

ImportSource MessageDbSource() {
  return {"message-db",
          "SELECT global_position AS position, stream_name AS stream, position AS version, type AS name, "
          "COALESCE(data, '{}') AS data, "
          "COALESCE(metadata, '{}') || jsonb_build_object('message_id', id::text) AS meta, "
          "time AT TIME ZONE 'UTC' AS created FROM message_store.messages"};
}

}  // namespace actctl
