-- pg_act 0.2.6 -> 0.3.0.
\echo Use "ALTER EXTENSION pg_act UPDATE TO '0.3.0'" to load this file. \quit

-- Witnesses (56_witnesses.sql): the keys and lines the functions accept are
-- the library's; their comments say so.
COMMENT ON FUNCTION act.register_log_key(text) IS
  'Registers a C2SP verifier key: a checkpoint signer''s (type 0x01) or a witness''s cosigner key (type 0x04); returns its name';
COMMENT ON FUNCTION act.add_checkpoint_signature(text) IS
  'Stores signatures and witness cosignatures made outside the database on a checkpoint of this log, checked against act.log_keys; returns its size';
