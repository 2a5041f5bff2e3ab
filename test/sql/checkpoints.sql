-- Checkpoints of the verifiable log: act.checkpoint (unsigned, signed with
-- act.checkpoint_key_file), act.register_log_key, act.add_checkpoint_signature,
-- act.log_wait. Keys and outside signatures are made by the openssl command,
-- not by the library, and Ed25519 is deterministic: both must sign alike.
BEGIN;
SELECT * FROM no_plan();
\ir lib/refused.sql

CREATE TEMP TABLE outside (key_file text, public_key bytea);
INSERT INTO outside (key_file) VALUES ('/tmp/pg_act_checkpoints_' || pg_backend_pid() || '.pem');
DO $$
DECLARE
  key_file text := (SELECT o.key_file FROM outside o);
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', format('openssl genpkey -algorithm ed25519 -out %s', key_file));
  CREATE TEMP TABLE public_key_b64 (b64 text);
  EXECUTE format('COPY public_key_b64 FROM PROGRAM %L',
                 format('openssl pkey -in %s -pubout -outform DER | tail -c 32 | base64 -w0', key_file));
  UPDATE outside SET public_key = decode((SELECT b64 FROM public_key_b64), 'base64');
END $$;
CREATE TEMP TABLE signed_b64 (b64 text);
-- The openssl command's Ed25519 signature of a text.
CREATE FUNCTION pg_temp.openssl_sign(body text) RETURNS bytea LANGUAGE plpgsql AS $$
DECLARE
  key_file text := (SELECT o.key_file FROM outside o);
BEGIN
  DELETE FROM signed_b64;
  EXECUTE format('COPY (SELECT %L) TO PROGRAM %L', translate(encode(convert_to(body, 'UTF8'), 'base64'), E'\n', ''),
                 format('base64 -d > %s.msg', key_file));
  EXECUTE format('COPY signed_b64 FROM PROGRAM %L',
                 format('openssl pkeyutl -sign -rawin -inkey %1$s -in %1$s.msg | base64 -w0', key_file));
  RETURN decode((SELECT b64 FROM signed_b64), 'base64');
END $$;
-- C2SP: key ID = SHA-256(name || 0x0A || 0x01 || public key)[:4].
CREATE FUNCTION pg_temp.key_id(name text) RETURNS bytea LANGUAGE sql AS $$
  SELECT substr(sha256(convert_to(name, 'UTF8') || '\x0a01'::bytea || (SELECT public_key FROM outside)), 1, 4)
$$;
CREATE FUNCTION pg_temp.vkey(name text) RETURNS text LANGUAGE sql AS $$
  SELECT name || '+' || encode(pg_temp.key_id(name), 'hex') || '+' ||
         translate(encode('\x01'::bytea || (SELECT public_key FROM outside), 'base64'), E'\n', '')
$$;
-- The signature with its first byte's bits flipped: never the signature itself
-- (overwriting the byte with 0x00 left it unchanged one run in 256).
CREATE FUNCTION pg_temp.forged(signature bytea) RETURNS bytea LANGUAGE sql AS $$
  SELECT set_byte(signature, 0, get_byte(signature, 0) # 255)
$$;
CREATE FUNCTION pg_temp.signature_line(name text, signature bytea) RETURNS text LANGUAGE sql AS $$
  SELECT '— ' || name || ' ' || translate(encode(pg_temp.key_id(name) || signature, 'base64'), E'\n', '') || E'\n'
$$;

-- An unsigned checkpoint: the C2SP text of the sealed tree.
SELECT count(*) FROM act.commit('c-1', '[{"name": "A"}, {"name": "B"}]');
SELECT act.checkpoint() AS first_note \gset
SELECT is(:'first_note', 'pg_act/' || current_database() || E'\n2\n' || encode(act.merkle_root(2), 'base64') || E'\n',
  'origin pg_act/<database>, the size, the base64 root, each on its line');
SELECT is((SELECT size FROM act.log_size()), 2::bigint, 'act.checkpoint sealed first');
SELECT results_eq('SELECT size, root, note FROM act.checkpoints',
  format($$VALUES (2::bigint, %L::bytea, %L::text)$$, act.merkle_root(2), :'first_note'), 'and kept the checkpoint');
SELECT is(act.checkpoint(), :'first_note', 'a second checkpoint at the same size returns the stored note');
SELECT is((SELECT count(*) FROM act.checkpoints), 1::bigint, 'and stores nothing more');

-- The origin is a setting.
SET act.log_origin = 'example.com/orders';
SELECT count(*) FROM act.commit('c-1', '[{"name": "C"}]');
SELECT act.checkpoint(false) AS third_note \gset
SELECT is(:'third_note', E'example.com/orders\n3\n' || encode(act.merkle_root(3), 'base64') || E'\n',
  'act.log_origin names the log');

-- Signed inside the database: the key file is a superuser setting.
SELECT set_config('act.checkpoint_key_file', (SELECT key_file FROM outside), true) IS NOT NULL;
SELECT act.checkpoint() AS signed_note \gset
SELECT is(:'signed_note',
  E'example.com/orders\n3\n' || encode(act.merkle_root(3), 'base64') || E'\n\n' ||
  pg_temp.signature_line('example.com/orders', pg_temp.openssl_sign(E'example.com/orders\n3\n' || encode(act.merkle_root(3), 'base64') || E'\n')),
  'a checkpoint at a size stated before gains the database''s signature, the one the openssl command makes');
SELECT is((SELECT note FROM act.checkpoints WHERE size = 3), :'signed_note', 'and the stored note has it');
SELECT is(act.checkpoint(), :'signed_note', 'signing again adds nothing');
SELECT count(*) FROM act.commit('c-2', '[{"name": "A"}]');
SELECT act.checkpoint() AS next_note \gset
SELECT ok(:'next_note' LIKE E'example.com/orders\n4\n%\n\n— example.com/orders %\n', 'a new size is signed at once');
SELECT is(act.checkpoint(false), :'next_note', 'sign = false returns a stored note as it is');
SELECT set_config('act.checkpoint_key_file', '', true);

-- Signed outside the database: a registered key, a checked signature.
SELECT is(act.register_log_key(pg_temp.vkey('example.com/orders')), 'example.com/orders', 'register_log_key returns the key''s name');
SELECT is(act.register_log_key(pg_temp.vkey('example.com/orders')), 'example.com/orders', 'registering it again is harmless');
SELECT results_eq('SELECT name, key_id, public_key FROM act.log_keys',
  $$SELECT 'example.com/orders', pg_temp.key_id('example.com/orders'), public_key FROM outside$$, 'act.log_keys holds its public half');
SELECT count(*) FROM act.commit('c-2', '[{"name": "B"}]');
SELECT act.checkpoint(false) AS body \gset
SELECT is(:'body', E'example.com/orders\n5\n' || encode(act.merkle_root(5), 'base64') || E'\n', 'an unsigned body for the outside signer');
SELECT is(act.add_checkpoint_signature(:'body' || E'\n' || pg_temp.signature_line('example.com/orders', pg_temp.openssl_sign(:'body'))),
  5::bigint, 'add_checkpoint_signature accepts the outside signature and returns the size');
SELECT is((SELECT note FROM act.checkpoints WHERE size = 5),
  :'body' || E'\n' || pg_temp.signature_line('example.com/orders', pg_temp.openssl_sign(:'body')), 'and stores it with the note');

-- Refused notes: 22023, nothing stored.
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)', :'body'), '22023', '%', 'a note without signatures');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)',
    :'body' || E'\n' || pg_temp.signature_line('example.com/orders', pg_temp.forged(pg_temp.openssl_sign(:'body')))),
  '22023', 'the note''s signatures do not hold%', 'a forged signature');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)',
    E'example.com/other\n5\n' || encode(act.merkle_root(5), 'base64') || E'\n\n' ||
    pg_temp.signature_line('example.com/orders', pg_temp.openssl_sign(E'example.com/other\n5\n' || encode(act.merkle_root(5), 'base64') || E'\n'))),
  '22023', 'the note is for log "example.com/other", not this one ("example.com/orders", act.log_origin)', 'another log''s note');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)',
    E'example.com/orders\n5\n' || encode(sha256('forged'), 'base64') || E'\n\n' ||
    pg_temp.signature_line('example.com/orders', pg_temp.openssl_sign(E'example.com/orders\n5\n' || encode(sha256('forged'), 'base64') || E'\n'))),
  '22023', 'the note''s root is not the log''s root at size 5', 'a root the log never had');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)',
    E'example.com/orders\n9\n' || encode(sha256('x'), 'base64') || E'\n\n' ||
    pg_temp.signature_line('example.com/orders', pg_temp.openssl_sign(E'example.com/orders\n9\n' || encode(sha256('x'), 'base64') || E'\n'))),
  '22023', 'the note states size 9, beyond the log, which has 5 entries', 'a size beyond the log');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)',
    E'example.com/orders\n1\n' || encode(act.merkle_root(1), 'base64') || E'\n\n' ||
    pg_temp.signature_line('example.com/orders', pg_temp.openssl_sign(E'example.com/orders\n1\n' || encode(act.merkle_root(1), 'base64') || E'\n'))),
  '22023', 'checkpoints never shrink: the latest is at size 5, above the note''s 1', 'a checkpoint below the latest');
SET LOCAL act.log_origin = 'example.com/unregistered';
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)',
    E'example.com/unregistered\n5\n' || encode(act.merkle_root(5), 'base64') || E'\n\n' ||
    pg_temp.signature_line('example.com/unregistered', pg_temp.openssl_sign(E'example.com/unregistered\n5\n' || encode(act.merkle_root(5), 'base64') || E'\n'))),
  '22023', 'the note is signed by key "example.com/unregistered", which is not registered (act.register_log_key)', 'an unregistered key');
SET LOCAL act.log_origin = 'example.com/orders';
SELECT pg_temp.refused($$SELECT act.register_log_key('example.com/orders+00000000+AQ==')$$, '22023', '%', 'a malformed vkey');
SELECT throws_ok('SELECT act.add_checkpoint_signature(NULL)', '22004', 'note must not be null', 'a NULL note');

-- act.verify_log checks the stored notes' signatures by registered keys.
SELECT is_empty('SELECT * FROM act.verify_log()', 'verify_log: every stored signature by a registered key holds');
SAVEPOINT forged;
UPDATE act.checkpoints
   SET note = :'body' || E'\n' || pg_temp.signature_line('example.com/orders',
                 pg_temp.forged(pg_temp.openssl_sign(:'body')))
 WHERE size = 5;
SELECT results_eq('SELECT position, problem FROM act.verify_log()',
  $$VALUES (5::bigint, 'the checkpoint at size 5 carries a signature by example.com/orders (a registered key) that does not verify')$$,
  'verify_log: a stored signature rewritten by the owner');
ROLLBACK TO forged;

-- act.log_wait: the smallest checkpoint covering the event.
SELECT is(act.log_wait((SELECT min(id) FROM act.events), 0), 2::bigint, 'an event covered since the first checkpoint');
SELECT is(act.log_wait((SELECT max(id) FROM act.events), 0), 5::bigint, 'the latest event, by the latest checkpoint');
SELECT count(*) FROM act.commit('c-3', '[{"name": "A"}]');
SELECT is(act.log_wait((SELECT max(id) FROM act.events), 50), NULL, 'an event no checkpoint covers yet: NULL at the timeout');
SELECT throws_ok('SELECT act.log_wait(1, -1)', '22023', 'timeout_ms must be 0 or more, not -1', 'a negative timeout');

DO $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', format('rm -f %1$s %1$s.msg', (SELECT key_file FROM outside)));
END $$;
SELECT * FROM finish();
ROLLBACK;
