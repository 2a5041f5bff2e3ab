-- C++: extension/merkle/checkpoints.cpp
-- Signatures and witnesses' cosignatures (docs/verifiable-log.md,
-- "Witnesses") are kept in the stored note of act.checkpoints, so every
-- reader of a checkpoint gets them with it.
CREATE OR REPLACE FUNCTION act.add_checkpoint_signature(note text) RETURNS bigint
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_add_checkpoint_signature';
-- grant act_admin: Stores signatures and witness cosignatures made outside the database on a checkpoint of this log, checked against act.log_keys; returns its size
