-- One claim of up to 10 streams; 0 ms leases expire at once, so every call
-- finds the same 10 streams with work and leases them again.
SELECT count(*) FROM act.claim(8, 2, 'bench-' || :client_id, 0);
