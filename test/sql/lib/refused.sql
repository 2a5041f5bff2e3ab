-- Helpers for suites that check refused input (included with \ir): the
-- state of every table as one digest, a statement's outcome, and
-- pg_temp.refused(), which asserts the SQLSTATE, the message and that
-- nothing stored changed.
-- Everything the extension stores, as one digest.
CREATE FUNCTION pg_temp.state() RETURNS text LANGUAGE sql AS $$
  SELECT md5(concat_ws('|',
    (SELECT string_agg(concat_ws(',', e.id, md5(e.stream), e.version, e.name, md5(e.data::text), md5(e.meta::text),
                                 md5(coalesce(e.pii::text, '-')), e.created, e.hash), ';' ORDER BY e.id) FROM act.events e),
    (SELECT string_agg(s::text, ';' ORDER BY s.stream) FROM act.subscription_rows s),
    (SELECT string_agg(c::text, ';' ORDER BY c.id) FROM act.wide_classes c),
    (SELECT string_agg(w::text, ';' ORDER BY w.class, w.backend) FROM act.wide_marks w),
    (SELECT string_agg(c::text, ';' ORDER BY c.key) FROM act.correlators c),
    (SELECT string_agg(a::text, ';' ORDER BY a.stream) FROM act.stream_anchors a),
    (SELECT string_agg(l::text, ';') FROM act.log_state l),
    (SELECT string_agg(t::text, ';' ORDER BY t.level, t.idx) FROM act.log_tiles t),
    (SELECT string_agg(b::text, ';' ORDER BY b.idx) FROM act.log_entries b),
    (SELECT string_agg(c::text, ';' ORDER BY c.size) FROM act.checkpoints c),
    (SELECT string_agg(k::text, ';' ORDER BY k.vkey) FROM act.log_keys k)))
$$;

-- The SQLSTATE and message of a statement ('00000' when it succeeds); a
-- cancel (statement_timeout) is caught too, which WHEN OTHERS does not do.
CREATE FUNCTION pg_temp.outcome(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN '00000';
EXCEPTION WHEN query_canceled OR others THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Two assertions: the statement fails with `code` (and a message matching
-- `message`, a LIKE pattern), and nothing stored changed.
CREATE FUNCTION pg_temp.refused(statement text, code text, message text, description text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  before text := pg_temp.state();
  result text := pg_temp.outcome(statement);
BEGIN
  RETURN NEXT matches(result, '^' || code || ': ', description || ' (' || code || ')');
  IF message IS NOT NULL THEN
    RETURN NEXT alike(substr(result, 8), message, description || ': the message');
  END IF;
  RETURN NEXT is(pg_temp.state(), before, description || ': nothing written');
END $$;
