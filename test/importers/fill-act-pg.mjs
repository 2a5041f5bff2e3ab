// Fills a database with Act's Postgres store (@rotorsoft/act-pg 0.4.6, on
// the Act 0.5.6 it pins) through Act's own API: an app whose actions commit
// one or two events each, over many streams, with Act's correlation and
// causation in meta.
//   node fill-act-pg.mjs DATABASE EVENTS     (the cluster from PG*)
import { act, dispose, state, store } from "@rotorsoft/act";
import { PostgresStore } from "@rotorsoft/act-pg";
import { z } from "zod";

const [database, wanted] = [process.argv[2], Number(process.argv[3])];
store(
  new PostgresStore({
    host: process.env.PGHOST,
    port: Number(process.env.PGPORT),
    user: process.env.PGUSER,
    password: "",
    database,
    schema: "public",
    table: "events",
  }),
);
await store().seed();

const Account = state("Account", z.object({ balance: z.number() }))
  .init(() => ({ balance: 0 }))
  .emits({
    Deposited: z.object({ amount: z.number(), memo: z.string() }),
    Noted: z.object({ text: z.string(), tags: z.array(z.string()) }),
  })
  .patch({
    Deposited: (event, state) => ({ balance: state.balance + event.data.amount }),
    Noted: () => ({}),
  })
  // Two events in one commit: they share meta and time in the source.
  .on("deposit", z.object({ amount: z.number(), memo: z.string() }))
  .emit((action) => [
    ["Deposited", { amount: action.amount, memo: action.memo }],
    ["Noted", { text: `deposit of ${action.amount}`, tags: ["deposit", "ünïcødé"] }],
  ])
  .on("note", z.object({ text: z.string() }))
  .emit((action) => ["Noted", { text: action.text, tags: [] }])
  .build();

const app = act().with(Account).build();
const actor = { id: "importer-test", name: "Importer test" };
// Act loads a stream's events for each action: streams of a few dozen events
// keep that short at any size. Eight writers at once, each on streams of its
// own (the stream count is a multiple of eight), so none conflicts.
const writers = 8;
const streams = writers * Math.ceil(Math.max(97, wanted / 40) / writers);
let written = 0;
async function writer(k) {
  for (let i = k; written < wanted; i += writers) {
    const target = { stream: `account-${i % streams}`, actor };
    if (i % 3 === 0 || wanted - written < 2) {
      written += 1;
      await app.do("note", target, { text: `note ${i} with "quotes" and \\ backslash` });
    } else {
      written += 2;
      await app.do("deposit", target, { amount: i * 1.5, memo: `memo ${i}` });
    }
  }
}
await Promise.all([...Array(writers).keys()].map(writer));
await dispose()();
console.log(written);
