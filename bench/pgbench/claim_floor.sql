-- claim_ten.sql's work in plain SQL: lease up to 10 rows with work whose lease
-- has run out, skipping rows another caller holds. The lease lasts 0 ms, so
-- every call finds the same 10 rows again.
WITH free AS (
  SELECT stream FROM plain_subscriptions
   WHERE at < correlated_at AND (leased_until IS NULL OR leased_until <= now())
   ORDER BY at, stream LIMIT 10 FOR UPDATE SKIP LOCKED)
UPDATE plain_subscriptions s SET leased_by = 'bench-' || :client_id, leased_until = now()
  FROM free WHERE s.stream = free.stream
RETURNING s.stream, s.source, s.at;
