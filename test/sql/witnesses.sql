-- Witnesses' cosignatures (C2SP tlog-cosignature/v1) through
-- act.register_log_key and act.add_checkpoint_signature, and the refusals of
-- act.checkpoint: a NULL sign, a key file that is not a regular file. Keys
-- and signatures are made by the openssl command, not by the library.
BEGIN;
SELECT * FROM no_plan();
\ir lib/refused.sql

-- Four Ed25519 keys: the log's, two registered witnesses', one unregistered.
CREATE TEMP TABLE keys (who text PRIMARY KEY, key_file text, public_key bytea);
INSERT INTO keys (who, key_file)
SELECT who, '/tmp/pg_act_witnesses_' || pg_backend_pid() || '_' || who || '.pem'
FROM unnest(ARRAY['log', 'w1', 'w2', 'w3']) AS who;
CREATE TEMP TABLE public_key_b64 (b64 text);
DO $$
DECLARE
  k record;
BEGIN
  FOR k IN SELECT * FROM keys LOOP
    EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', format('openssl genpkey -algorithm ed25519 -out %s', k.key_file));
    DELETE FROM public_key_b64;
    EXECUTE format('COPY public_key_b64 FROM PROGRAM %L',
                   format('openssl pkey -in %s -pubout -outform DER | tail -c 32 | base64 -w0', k.key_file));
    UPDATE keys SET public_key = decode((SELECT b64 FROM public_key_b64), 'base64') WHERE who = k.who;
  END LOOP;
END $$;
CREATE TEMP TABLE signed_b64 (b64 text);
-- The openssl command's Ed25519 signature of a message by one of the keys.
CREATE FUNCTION pg_temp.sign(who text, message text) RETURNS bytea LANGUAGE plpgsql AS $$
DECLARE
  key_file text := (SELECT k.key_file FROM keys k WHERE k.who = sign.who);
BEGIN
  DELETE FROM signed_b64;
  EXECUTE format('COPY (SELECT %L) TO PROGRAM %L', translate(encode(convert_to(message, 'UTF8'), 'base64'), E'\n', ''),
                 format('base64 -d > %s.msg', key_file));
  EXECUTE format('COPY signed_b64 FROM PROGRAM %L',
                 format('openssl pkeyutl -sign -rawin -inkey %1$s -in %1$s.msg | base64 -w0', key_file));
  RETURN decode((SELECT b64 FROM signed_b64), 'base64');
END $$;
-- C2SP: key ID = SHA-256(name || 0x0A || type || public key)[:4]; 0x01 signs notes, 0x04 cosigns.
CREATE FUNCTION pg_temp.key_id(who text, name text, type bytea) RETURNS bytea LANGUAGE sql AS $$
  SELECT substr(sha256(convert_to(name, 'UTF8') || '\x0a'::bytea || type || (SELECT public_key FROM keys k WHERE k.who = $1)), 1, 4)
$$;
CREATE FUNCTION pg_temp.vkey(who text, name text, type bytea) RETURNS text LANGUAGE sql AS $$
  SELECT name || '+' || encode(pg_temp.key_id(who, name, type), 'hex') || '+' ||
         translate(encode(type || (SELECT public_key FROM keys k WHERE k.who = $1), 'base64'), E'\n', '')
$$;
CREATE FUNCTION pg_temp.line(name text, key_id bytea, payload bytea) RETURNS text LANGUAGE sql AS $$
  SELECT '— ' || name || ' ' || translate(encode(key_id || payload, 'base64'), E'\n', '') || E'\n'
$$;
-- The log's signature line on a checkpoint text.
CREATE FUNCTION pg_temp.log_line(body text) RETURNS text LANGUAGE sql AS $$
  SELECT pg_temp.line('example.com/log', pg_temp.key_id('log', 'example.com/log', '\x01'), pg_temp.sign('log', body))
$$;
-- A cosignature line: key ID || 8-byte big-endian time || the signature of
-- "cosignature/v1\ntime <time>\n" followed by the text.
CREATE FUNCTION pg_temp.cosignature(who text, body text, at bigint) RETURNS text LANGUAGE sql AS $$
  SELECT pg_temp.line(who || '.example/witness', pg_temp.key_id(who, who || '.example/witness', '\x04'),
                      int8send(at) || pg_temp.sign(who, E'cosignature/v1\ntime ' || at || E'\n' || body))
$$;

SET LOCAL act.log_origin = 'example.com/log';
SELECT is(act.register_log_key(pg_temp.vkey('log', 'example.com/log', '\x01')), 'example.com/log', 'the log''s key');
SELECT is(act.register_log_key(pg_temp.vkey('w1', 'w1.example/witness', '\x04')), 'w1.example/witness',
  'register_log_key takes a witness''s cosigner key (type 0x04)');
SELECT is(act.register_log_key(pg_temp.vkey('w2', 'w2.example/witness', '\x04')), 'w2.example/witness', 'and a second one');
SELECT is((SELECT key_id FROM act.log_keys WHERE name = 'w1.example/witness'), pg_temp.key_id('w1', 'w1.example/witness', '\x04'),
  'its key ID is the one of type 0x04');

SELECT count(*) FROM act.commit('w-1', '[{"name": "A"}, {"name": "B"}, {"name": "C"}]');
SELECT act.checkpoint(false) AS body \gset
SELECT is(act.add_checkpoint_signature(:'body' || E'\n' || pg_temp.log_line(:'body')), 3::bigint, 'the log signs');
SELECT pg_temp.cosignature('w1', :'body', 1700000000) AS w1_line \gset
SELECT pg_temp.cosignature('w2', :'body', 1700000001) AS w2_line \gset
SELECT is(act.add_checkpoint_signature(:'body' || E'\n' || :'w1_line'), 3::bigint,
  'a note with a witness''s cosignature only is accepted');
SELECT is((SELECT note FROM act.checkpoints WHERE size = 3), :'body' || E'\n' || pg_temp.log_line(:'body') || :'w1_line',
  'the cosignature joins the stored note after the log''s signature');
SELECT is(act.add_checkpoint_signature(:'body' || E'\n' || :'w2_line' || :'w1_line'), 3::bigint,
  'a second witness''s, with the first''s again');
SELECT is(act.checkpoint(), :'body' || E'\n' || pg_temp.log_line(:'body') || :'w1_line' || :'w2_line',
  'act.checkpoint() hands out the note with both cosignatures, each once');
SELECT is(act.add_checkpoint_signature(:'body' || E'\n' || pg_temp.cosignature('w1', :'body', 1700000005)), 3::bigint,
  'a later cosignature by the same witness is accepted');
SELECT is((SELECT note FROM act.checkpoints WHERE size = 3), :'body' || E'\n' || pg_temp.log_line(:'body') || :'w1_line' || :'w2_line',
  'and changes nothing: one line per key');

-- A larger checkpoint, cosigned by both at once.
SELECT count(*) FROM act.commit('w-2', '[{"name": "D"}]');
SELECT act.checkpoint(false) AS body4 \gset
SELECT is(act.add_checkpoint_signature(:'body4' || E'\n' || pg_temp.log_line(:'body4') ||
    pg_temp.cosignature('w1', :'body4', 1700000010) || pg_temp.cosignature('w2', :'body4', 1700000011)), 4::bigint,
  'a note with the log''s signature and two cosignatures');
SELECT ok((SELECT note FROM act.checkpoints WHERE size = 4) LIKE '%— w1.example/witness %— w2.example/witness %',
  'stored with both');

-- Refused cosignatures: 22023, nothing stored.
-- A byte's bits flipped: never the bytes themselves (overwriting the byte
-- with 0x00 left them unchanged one run in 256).
CREATE FUNCTION pg_temp.flipped(bytes bytea, at int) RETURNS bytea LANGUAGE sql AS $$
  SELECT set_byte(bytes, at, get_byte(bytes, at) # 255)
$$;
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)', :'body4' || E'\n' ||
    pg_temp.line('w1.example/witness', pg_temp.key_id('w1', 'w1.example/witness', '\x04'),
                 pg_temp.flipped(int8send(1700000020) || pg_temp.sign('w1', E'cosignature/v1\ntime 1700000020\n' || :'body4'), 19))),
  '22023', 'the note''s signatures do not hold: the signature by w1.example/witness+% does not verify', 'a cosignature with a changed signature byte');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)', :'body4' || E'\n' ||
    pg_temp.line('w1.example/witness', pg_temp.key_id('w1', 'w1.example/witness', '\x04'),
                 int8send(1700000021) || pg_temp.sign('w1', E'cosignature/v1\ntime 1700000020\n' || :'body4'))),
  '22023', 'the note''s signatures do not hold%', 'a cosignature whose time is not the signed one');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)', :'body4' || E'\n' ||
    pg_temp.line('w1.example/witness', pg_temp.key_id('w1', 'w1.example/witness', '\x04'), pg_temp.sign('w1', :'body4'))),
  '22023', 'the note''s signatures do not hold%', 'a plain signature of the text under the cosigner''s key ID');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)', :'body4' || E'\n' ||
    pg_temp.line('w1.example/witness', pg_temp.key_id('w1', 'w1.example/witness', '\x04'),
                 '\x8000000000000000'::bytea || pg_temp.sign('w1', E'cosignature/v1\ntime 9223372036854775808\n' || :'body4'))),
  '22023', 'the note''s signatures do not hold%', 'a cosignature time beyond 2^63 - 1');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)', :'body4' || E'\n' || pg_temp.cosignature('w3', :'body4', 1700000030)),
  '22023', 'the note is signed by key "w3.example/witness", which is not registered (act.register_log_key)', 'an unregistered witness');
SELECT pg_temp.refused(format('SELECT act.add_checkpoint_signature(%L)',
    E'example.com/log\n4\n' || encode(sha256('forked'), 'base64') || E'\n\n' ||
    pg_temp.cosignature('w1', E'example.com/log\n4\n' || encode(sha256('forked'), 'base64') || E'\n', 1700000040)),
  '22023', 'the note''s root is not the log''s root at size 4', 'a cosigned root the log never had');
SELECT pg_temp.refused($$SELECT act.register_log_key('w9.example+00000000+AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')$$,
  '22023', '%key type 0x02 is neither Ed25519 (0x01) nor an Ed25519 cosigner (0x04)', 'a verifier key of type 0x02');
SELECT pg_temp.refused('SELECT act.register_log_key(NULL)', '22004', 'vkey must not be null', 'a NULL vkey');

-- act.checkpoint(NULL) refuses instead of signing.
SELECT count(*) FROM act.commit('w-3', '[{"name": "E"}]');
SELECT pg_temp.refused('SELECT act.checkpoint(NULL)', '22004', 'sign must not be null', 'act.checkpoint(NULL)');

-- act.checkpoint_key_file must be a regular file, refused without blocking.
CREATE TEMP TABLE fifo (path text);
INSERT INTO fifo VALUES ('/tmp/pg_act_witnesses_' || pg_backend_pid() || '.fifo');
DO $$
DECLARE
  path text := (SELECT f.path FROM fifo f);
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', format('cat >/dev/null; mkfifo %s', path));
  -- Bounds the test where the key file is opened blocking: a writer opens
  -- the FIFO after 10 s (unblocking such a reader), gives up after 30 s,
  -- and removes it.
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L',
                 format('cat >/dev/null; (sleep 10; timeout 20 sh -c '': > %1$s''; rm -f %1$s) >/dev/null 2>&1 &', path));
END $$;
SET LOCAL statement_timeout = '3s';
SELECT set_config('act.checkpoint_key_file', (SELECT path FROM fifo), true) IS NOT NULL;
SELECT pg_temp.refused('SELECT act.checkpoint()', '22023', 'key file "/tmp/pg_act_witnesses_%.fifo" (act.checkpoint_key_file) is a FIFO, not a regular file',
  'a FIFO as the key file');
SELECT set_config('act.checkpoint_key_file', '/tmp', true) IS NOT NULL;
SELECT pg_temp.refused('SELECT act.checkpoint()', '22023', '% is a directory, not a regular file', 'a directory as the key file');
SELECT set_config('act.checkpoint_key_file', '/dev/zero', true) IS NOT NULL;
SELECT pg_temp.refused('SELECT act.checkpoint()', '22023', '% is a character device, not a regular file', 'a device as the key file');
SELECT set_config('act.checkpoint_key_file', '/tmp/pg_act_witnesses_no_such_file.pem', true) IS NOT NULL;
SELECT pg_temp.refused('SELECT act.checkpoint()', '22023', 'cannot open key file %: No such file or directory', 'a missing key file');
SELECT set_config('act.checkpoint_key_file', (SELECT key_file FROM keys WHERE who = 'log'), true) IS NOT NULL;
RESET statement_timeout;
SELECT ok(act.checkpoint() LIKE E'example.com/log\n5\n%\n\n— example.com/log %\n', 'a regular key file signs');
SELECT set_config('act.checkpoint_key_file', '', true) IS NOT NULL;

DO $$
BEGIN
  EXECUTE format('COPY (SELECT 1) TO PROGRAM %L',
                 format('rm -f %s', (SELECT string_agg(key_file || ' ' || key_file || '.msg', ' ') FROM keys)));
END $$;
SELECT * FROM finish();
ROLLBACK;
