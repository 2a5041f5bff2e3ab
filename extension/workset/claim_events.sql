-- The statements claim_events.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: names
SELECT s.stream, s.names FROM act.subscription_rows s WHERE s.stream = ANY ($1)
