-- The extension's objects and their definitions, by name (never by oid):
-- what an upgraded database and a fresh install must agree on. Used by
-- test/run-upgrade.sh.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
WITH ext AS (SELECT * FROM pg_extension WHERE extname = 'pg_act'),
members AS (
  SELECT d.classid, d.objid, d.objsubid FROM pg_depend d JOIN ext ON d.refobjid = ext.oid
   WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
), relations AS (
  SELECT c.* FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'act'
)
SELECT 'member: ' || pg_describe_object(m.classid, m.objid, m.objsubid) FROM members m
UNION ALL
SELECT 'extension: ' || concat_ws(' ', e.extversion IS NOT NULL, e.extrelocatable, n.nspname, r.rolname,
         (SELECT string_agg(x::regclass::text, ',' ORDER BY x::regclass::text) FROM unnest(e.extconfig) x),
         array_to_string(e.extcondition, ','))
  FROM ext e JOIN pg_namespace n ON n.oid = e.extnamespace JOIN pg_roles r ON r.oid = e.extowner
UNION ALL
SELECT 'schema: ' || concat_ws(' ', n.nspname, pg_get_userbyid(n.nspowner), n.nspacl::text, obj_description(n.oid, 'pg_namespace'))
  FROM pg_namespace n WHERE n.nspname = 'act'
UNION ALL
SELECT 'function: ' || pg_get_functiondef(p.oid) || ' acl ' || coalesce(p.proacl::text, '-') || ' owner '
       || pg_get_userbyid(p.proowner) || ' comment ' || coalesce(obj_description(p.oid, 'pg_proc'), '-')
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'act'
UNION ALL
SELECT 'relation: ' || concat_ws(' ', c.relname, c.relkind, c.relpersistence, pg_get_userbyid(c.relowner),
         coalesce(c.relacl::text, '-'), coalesce(c.reloptions::text, '-'), coalesce(obj_description(c.oid, 'pg_class'), '-'),
         c.relhastriggers, c.relrowsecurity)
  FROM relations c
UNION ALL
SELECT 'column: ' || concat_ws(' ', c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
         coalesce(pg_get_expr(d.adbin, d.adrelid), '-'), a.attidentity, a.attgenerated, coalesce(a.attacl::text, '-'),
         coalesce(col_description(c.oid, a.attnum), '-'))
  FROM relations c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
UNION ALL
SELECT 'constraint: ' || concat_ws(' ', c.relname, k.conname, pg_get_constraintdef(k.oid))
  FROM relations c JOIN pg_constraint k ON k.conrelid = c.oid
UNION ALL
SELECT 'index: ' || pg_get_indexdef(i.indexrelid) FROM relations c JOIN pg_index i ON i.indrelid = c.oid
UNION ALL
SELECT 'trigger: ' || pg_get_triggerdef(t.oid) FROM relations c JOIN pg_trigger t ON t.tgrelid = c.oid AND NOT t.tgisinternal
UNION ALL
SELECT 'view: ' || c.relname || ' ' || pg_get_viewdef(c.oid) FROM relations c WHERE c.relkind IN ('v', 'm')
UNION ALL
SELECT 'sequence: ' || concat_ws(' ', s.sequencename, s.data_type, s.start_value, s.min_value, s.max_value, s.increment_by,
         s.cycle, s.cache_size)
  FROM pg_sequences s WHERE s.schemaname = 'act'
UNION ALL
SELECT 'policy: ' || concat_ws(' ', p.tablename, p.policyname, p.cmd, p.roles::text, p.qual, p.with_check)
  FROM pg_policies p WHERE p.schemaname = 'act'
UNION ALL
SELECT 'initial privileges: ' || pg_describe_object(i.classoid, i.objoid, i.objsubid) || ' ' || i.privtype::text || ' '
       || i.initprivs::text
  FROM pg_init_privs i JOIN members m ON m.classid = i.classoid AND m.objid = i.objoid
ORDER BY 1;
