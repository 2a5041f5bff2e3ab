-- C++: extension/log/horizon_sql.cpp
-- The commit fence's lock tag (extension/log/locks.hpp), as pg_locks shows it.
CREATE OR REPLACE FUNCTION act._fence_lock_tag() RETURNS TABLE(classid oid, objid oid, objsubid int2)
LANGUAGE c IMMUTABLE
AS 'MODULE_PATHNAME', 'act_fence_lock_tag';
-- grant none
