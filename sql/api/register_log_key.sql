-- C++: extension/merkle/checkpoints.cpp
-- Witnesses (docs/verifiable-log.md, "Witnesses"): a checkpoint signer's key
-- (type 0x01) or a witness's cosigner key (type 0x04), whose C2SP
-- tlog-cosignature/v1 lines act.add_checkpoint_signature then accepts.
CREATE OR REPLACE FUNCTION act.register_log_key(vkey text) RETURNS text
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_register_log_key';
-- grant act_admin: Registers a C2SP verifier key: a checkpoint signer's (type 0x01) or a witness's cosigner key (type 0x04); returns its name
