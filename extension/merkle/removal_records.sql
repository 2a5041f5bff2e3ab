-- The statements removal_records.cpp prepares once per backend (SavedPlan), each
-- under its name; scripts/embed-sql.sh embeds them at build time.

-- name: records
SELECT r.record_id, r.positions::text, e.id, e.stream, e.name, e.data::text
FROM act.log_removals r LEFT JOIN act.events e ON e.id = r.record_id ORDER BY r.record_id
