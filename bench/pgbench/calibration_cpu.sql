-- Fixed work on the server's CPU (JSON and SHA-256, as verify and commit do):
-- bench-check's calibration for scenarios bound by the server's CPU.
SELECT count(DISTINCT sha256(convert_to(jsonb_build_object('i', i, 'data', 'payload-' || i)::text, 'UTF8')))
  FROM generate_series(1, 500) i;
