CREATE OR REPLACE FUNCTION act.prove_stream(stream text, tree_size bigint DEFAULT NULL)
RETURNS TABLE(version int, leaf_index bigint, tree_size bigint, leaf_hash bytea, path bytea[], root bytea)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  SELECT t.event_version, p.leaf_index, p.tree_size, p.leaf_hash, p.path, p.root
    FROM act._stream_proof_target($1, $2) t, act.prove_inclusion(t.event_id, t.sized) p
$$;
-- grant act_reader: Inclusion proof of the stream's latest event in the tree (its hash chains the whole stream)
