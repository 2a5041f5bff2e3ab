-- One claim of up to 10 streams of lane 'hot'; 0 ms leases expire at once,
-- so every call finds the same 10 streams with work.
SELECT count(*) FROM act.claim(8, 2, 'bench-' || :client_id, 0, 'hot');
