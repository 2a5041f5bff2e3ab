-- C++: extension/workset/subscribe.cpp
CREATE OR REPLACE FUNCTION act.subscribe(subscriptions jsonb, correlated_at bigint DEFAULT NULL, correlator jsonb DEFAULT NULL)
RETURNS TABLE(subscribed int, watermark bigint, correlated_at bigint, correlating boolean)
LANGUAGE c VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'act_subscribe';
-- grant act_worker: Registers or merges reaction targets (new ones back-filled), advances the correlate checkpoint, leases the correlator
