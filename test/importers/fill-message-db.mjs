// Fills a database with Message DB (@eventide/message-db), installed by the
// package's own script, through its own API: message_store.write_message,
// with and without an expected version, over streams of several categories
// (commands too), metadata as Eventide writes it.
//   node fill-message-db.mjs DATABASE EVENTS     (the cluster from PG*)
import { randomUUID } from "node:crypto";
import pg from "pg";

const [database, wanted] = [process.argv[2], Number(process.argv[3])];
// Message DB's functions call each other unqualified: its role's search path
// (roles/message-store.sql) names the schema, and so does a client of another role.
const pool = new pg.Pool({ database, options: "-c search_path=message_store,public", max: 8 });
// Eight writers at once, each on streams of its own (the stream count is a
// multiple of eight), so that expected versions hold.
const writers = 8;
const streams = 96;
const versions = new Map();
async function writer(k) {
  for (let i = k; i < wanted; i += writers) {
    const s = i % streams;
    const stream = s % 5 === 0 ? `account:command-${s}` : `${s % 2 ? "account" : "transfer"}-${s}`;
    const metadata =
      i % 7 === 0 ? null : { correlationStreamName: `transfer-${i % 11}`, causationMessagePosition: i, schemaVersion: "1" };
    const expected = versions.has(stream) ? versions.get(stream) : -1;
    versions.set(stream, expected + 1);
    // Every fourth write checks its expected version, as Eventide's writers do.
    await pool.query("SELECT message_store.write_message($1, $2, $3, $4, $5, $6)", [
      randomUUID(),
      stream,
      i % 3 ? "Deposited" : "Withdrawn",
      { amount: i, currency: "EUR", note: `m${i} "q" \\` },
      metadata,
      i % 4 === 0 ? expected : null,
    ]);
  }
}
await Promise.all([...Array(writers).keys()].map(writer));
await pool.end();
console.log(wanted);
