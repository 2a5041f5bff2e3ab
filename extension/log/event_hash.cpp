// act.event_hash(prev, stream, version, name, data, meta, created): the chain
// step of docs/hash-chain.md, for act.verify, act.truncate and auditors.
#include <string>

#include "act/core/errors.hpp"
#include "act/core/event_hash.hpp"
#include "arrays.hpp"
#include "error_bridge.hpp"
#include "jsonb_access.hpp"
#include "timestamps.hpp"

using namespace act;

ACT_SQL_FUNCTION(act_event_hash) {
  // STRICT in SQL: no argument is NULL here.
  bytea* prev = pg::Guard([fcinfo] { return PG_GETARG_BYTEA_PP(0); });
  if (VARSIZE_ANY_EXHDR(prev) != core::kZeroHash.size())
    throw core::ValidationError("prev must be 32 bytes, not " + std::to_string(VARSIZE_ANY_EXHDR(prev)));
  core::Hash prev_hash;
  memcpy(prev_hash.data(), VARDATA_ANY(prev), prev_hash.size());

  core::EventFields fields;
  fields.stream = pg::TextArg(fcinfo, 1);
  fields.version = PG_GETARG_INT32(2);
  fields.name = pg::TextArg(fcinfo, 3);
  fields.data_json = pg::CanonicalText(pg::JsonbArg(fcinfo, 4));
  fields.meta_json = pg::CanonicalText(pg::JsonbArg(fcinfo, 5));
  fields.created_unix_micros = pg::EncodedCreated(PG_GETARG_TIMESTAMPTZ(6));

  static core::EventHasher hasher;  // one preimage buffer per backend
  const core::Hash hash = hasher.Compute(prev_hash, fields);
  return pg::MakeBytea(hash.data(), hash.size());
}
