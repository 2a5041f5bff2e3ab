-- Witnesses (docs/verifiable-log.md, "Witnesses"): act.register_log_key
-- also takes a witness's cosigner key (type 0x04), and
-- act.add_checkpoint_signature also takes its C2SP tlog-cosignature/v1
-- lines; both are declared in 55_merkle_log.sql, their C++ in
-- extension/merkle/checkpoints.cpp. The cosignatures are kept in the stored
-- note of act.checkpoints, so every reader of a checkpoint gets them with it.
COMMENT ON FUNCTION act.register_log_key(text) IS
  'Registers a C2SP verifier key: a checkpoint signer''s (type 0x01) or a witness''s cosigner key (type 0x04); returns its name';
COMMENT ON FUNCTION act.add_checkpoint_signature(text) IS
  'Stores signatures and witness cosignatures made outside the database on a checkpoint of this log, checked against act.log_keys; returns its size';
