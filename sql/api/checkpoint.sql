-- C++: extension/merkle/checkpoints.cpp
CREATE OR REPLACE FUNCTION act.checkpoint() RETURNS text
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_checkpoint';
-- grant act_admin: Seals, then states the tree as a C2SP checkpoint (signed with act.checkpoint_key_file when set), kept per size

-- sign = false: the checkpoint text without the database's signature, for
-- signing outside the database (actctl log checkpoint --sign).
CREATE OR REPLACE FUNCTION act.checkpoint(sign boolean) RETURNS text
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_checkpoint';
-- grant act_admin: act.checkpoint(), signed by the database's key only when sign is true
