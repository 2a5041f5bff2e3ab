-- act.query_streams' source_matches (act._source_readers): the rows that may
-- read a stream, without testing every row's source. Source-less and pattern
-- rows (few) are tested one by one; literal rows are found by their source,
-- at the lengths this index lists.
CREATE INDEX subscriptions_wide_ix ON act.subscription_rows (stream)
  WHERE source IS NULL OR act._is_pattern(source);
CREATE INDEX subscriptions_literal_length_ix ON act.subscription_rows (length(source))
  WHERE NOT act._is_pattern(source);
