// The cluster and database come from the PG* environment (libpq's variables,
// which pg reads too): test/run-act-adapter.sh makes a fresh database per run.
import { store } from "@rotorsoft/act";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { PgActStore, type PgActStoreOptions } from "../src/index.js";

export const new_store = (options: PgActStoreOptions = {}): PgActStore => new PgActStore({ max: 4, ...options });

/**
 * The one line an app changes: pg_act as Act's store. Act keeps the first
 * store it is given (or its in-memory default, once anything asked for one),
 * so this runs when a test module imports this file, before it builds an app.
 */
store(new_store());

/** Act's store, checked to be pg_act, on an empty log. */
export async function use_pg_act(): Promise<PgActStore> {
  const s = store();
  if (!(s instanceof PgActStore)) throw new Error(`Act's store is ${s.constructor.name}, not PgActStore`);
  await s.drop();
  await s.seed();
  return s;
}

/** A plain connection for checks the Store port does not offer (verify, the raw rows). */
export const sql = (): pg.Pool => new pg.Pool({ max: 1 });

export const actor = { id: "u-1", name: "Ann" };

/**
 * The suite's hooks: an empty pg_act log before the file's tests, the app
 * shut down and the store's pool ended after them. Returns the store.
 */
export function on_empty_log(app?: { shutdown: () => Promise<void> }): () => PgActStore {
  let s: PgActStore | undefined;
  beforeAll(async () => {
    s = await use_pg_act();
  });
  afterAll(async () => {
    await app?.shutdown();
    await s?.dispose();
  });
  return () => s!;
}
