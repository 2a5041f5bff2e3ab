// An Act store imported from Act's Postgres store, read by Act on both sides:
// the source through @rotorsoft/act-pg's own query, pg_act through the Act
// adapter (adapters/act, built). Every event must come back the same but for
// its id: stream, version, name, data, meta (the import's idempotency_key
// aside) and created, the source's own time (milliseconds, as Act's Date).
// Prints "same N" or the first differences; exits 1 on any.
//   node compare-act-adapter.mjs SOURCE_DB TARGET_DB
import assert from "node:assert/strict";
import { PostgresStore } from "@rotorsoft/act-pg";
import { PgActStore } from "../../adapters/act/dist/index.js";

const [sourceDb, targetDb] = process.argv.slice(2);
const connection = { host: process.env.PGHOST, port: Number(process.env.PGPORT), user: process.env.PGUSER };

async function read(store, query) {
  const events = [];
  await store.query((e) => events.push(e), query);
  await store.dispose();
  return events;
}

const source = await read(new PostgresStore({ ...connection, password: "", database: sourceDb }), {});
const target = await read(new PgActStore({ ...connection, database: targetDb }), { with_snaps: true });
const differences = [];
if (source.length !== target.length) differences.push(`${source.length} events in the source, ${target.length} through the adapter`);
for (let i = 0; i < Math.min(source.length, target.length) && differences.length < 10; i++) {
  const { idempotency_key: _, ...meta } = target[i].meta;
  const shape = (e, meta) => ({ stream: e.stream, version: e.version, name: e.name, data: e.data, meta, created: e.created.getTime() });
  try {
    assert.deepEqual(shape(target[i], meta), shape(source[i], source[i].meta));
  } catch (e) {
    differences.push(`event ${i}: ${e.message.split("\n").slice(0, 12).join(" ")}`);
  }
}
for (const line of differences) console.log(line);
if (differences.length) process.exit(1);
console.log(`same ${source.length}`);
