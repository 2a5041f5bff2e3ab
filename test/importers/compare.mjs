// The test's own reading of an import, apart from actctl's check: the
// source's rows as the peer stores them, mapped here as docs/migrating.md
// says, against pg_act's act.query, event by event in order (stream, version,
// name, data, meta, the source's time in meta.restored_created), and the
// events per stream. Prints "same N" or the first differences; exits 1 on any.
//   node compare.mjs act-pg|message-db|emmett SOURCE_DB TARGET_DB
import assert from "node:assert/strict";
import pg from "pg";

const [peer, sourceDb, targetDb] = process.argv.slice(2);
// Row values as text where JavaScript would round them: ids and times.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (v) => v);
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (v) => v);

// A PostgreSQL time ("2026-12-06 18:29:45.628772+00", or without a zone:
// UTC) as the ISO text actctl writes: microseconds, Z.
function iso(text) {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?(\+00)?$/.exec(text);
  assert.ok(m, `unexpected time ${text}`);
  return `${m[1]}T${m[2]}.${(m[3] ?? "").padEnd(6, "0")}Z`;
}

const sources = {
  "act-pg": {
    sql: "SELECT * FROM public.events ORDER BY id",
    map: (r) => ({ stream: r.stream, version: r.version, name: r.name, data: r.data ?? {}, meta: r.meta ?? {}, created: r.created }),
  },
  "message-db": {
    sql: "SELECT * FROM message_store.messages ORDER BY global_position",
    map: (r) => ({
      stream: r.stream_name,
      version: Number(r.position),
      name: r.type,
      data: r.data ?? {},
      meta: { ...(r.metadata ?? {}), message_id: r.id },
      created: r.time,
    }),
  },
  emmett: {
    sql: "SELECT * FROM emt_messages WHERE NOT is_archived AND partition = 'emt:default' ORDER BY global_position",
    map: (r) => ({
      stream: r.stream_id,
      version: Number(r.stream_position) - 1,
      name: r.message_type,
      data: r.message_data,
      meta: { ...r.message_metadata, message_id: r.message_id, schema_version: r.message_schema_version },
      created: r.created,
    }),
  },
}[peer];

async function rows(database, sql) {
  const client = new pg.Client({ database });
  await client.connect();
  await client.query("SET TimeZone = 'UTC'");
  const { rows } = await client.query(sql);
  await client.end();
  return rows;
}

const source = (await rows(sourceDb, sources.sql)).map(sources.map);
const streams = new Set(source.map((e) => e.stream));
const target = (await rows(targetDb, "SELECT * FROM act.query(with_snaps => true)")).filter((e) => streams.has(e.stream));

const differences = [];
const count = (events) => events.reduce((m, e) => m.set(e.stream, (m.get(e.stream) ?? 0) + 1), new Map());
if (target.length !== source.length) differences.push(`${source.length} events in the source, ${target.length} in pg_act`);
const [sourceCounts, targetCounts] = [count(source), count(target)];
for (const [stream, n] of sourceCounts)
  if (targetCounts.get(stream) !== n) differences.push(`stream ${stream}: ${n} in the source, ${targetCounts.get(stream)} in pg_act`);
for (let i = 0; i < Math.min(source.length, target.length) && differences.length < 10; i++) {
  const { restored_created, idempotency_key, ...meta } = target[i].meta;
  const got = { stream: target[i].stream, version: target[i].version, name: target[i].name, data: target[i].data, meta, created: restored_created };
  const want = { ...source[i], created: iso(source[i].created) };
  try {
    assert.deepEqual(got, want);
    assert.match(idempotency_key, new RegExp(`^import:${peer}:\\d+\\.\\.\\d+$`));
  } catch (e) {
    differences.push(`event ${i}: ${e.message.split("\n").slice(0, 12).join(" ")}`);
  }
}
for (const line of differences) console.log(line);
if (differences.length) process.exit(1);
console.log(`same ${source.length}`);
