-- Removal records (docs/verifiable-log.md, "Removal records"): every
-- act.truncate that deletes events states, in an event of the reserved
-- stream __truncations__ (hashed and sealed like any other), how many entries
-- it removed and a digest of them; act.log_removals lists their positions.
-- An entry whose event is gone passes act.verify_log and the auditors only
-- when a record accounts for it. C++ in extension/merkle/removal_records.cpp.

CREATE TABLE act.log_removals (
  record_id bigint PRIMARY KEY,
  positions int8multirange NOT NULL CHECK (NOT isempty(positions)),
  created   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE act.log_removals IS
  'pg_act: the entry positions each removal record (an event of __truncations__) accounts for';
