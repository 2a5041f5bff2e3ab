// Writers racing on one new stream, as an application meets it: WRITERS
// writers (20) share one pg.Pool of POOL connections (10); each round names
// a fresh stream, every writer commits one event expecting -1 (the stream
// must not exist) and, on a lost race, tries again expecting the version
// the conflict names, until it lands. ROUNDS rounds (10; RACE_ROUNDS), one
// untimed round first to open the pool's connections.
//   node racing_writers.mjs pg_act            act.commit on PGDATABASE, each
//                                             try on a connection from
//                                             pool.connect(), given back after
//                                             a conflict (as adapters/act does)
//   node racing_writers.mjs pg_act_pool_query the same through pool.query,
//                                             which closes the connection
//                                             after any failed query: a new
//                                             backend for every lost race
//   node racing_writers.mjs act_pg DATABASE   act-pg 0.4.6's PostgresStore.commit
// One JSON record: landings per second over the rounds' wall time, time to
// land (a writer's first try to its landing, pool waits included: p50/p95),
// attempts per landing, and the CPU seconds of this process and of the
// server (server_cpu below) over the timed rounds.
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { main, pick } from "./harness.mjs";

const writers = 20;
const pool_size = 10;
const rounds = Number(process.env.RACE_ROUNDS || pick(10, 3));
const event = { name: "Incremented", data: {} };

const commit_sql = "SELECT version FROM act.commit($1, $2::jsonb, '{}'::jsonb, $3)";

/**
 * pg_act: act.commit directly; a 40001's message names the actual version.
 * keep: a failed try gives its connection back to the pool when the server
 * raised the error (it has a SQLSTATE) instead of closing it.
 */
function pg_act_store(keep) {
  const pool = new pg.Pool({ max: pool_size });
  return {
    database: process.env.PGDATABASE,
    framework: `node-postgres ${pg_version}`,
    commit: async (stream, expected) => {
      const values = [stream, JSON.stringify([event]), expected];
      if (!keep) return pool.query(commit_sql, values);
      const client = await pool.connect();
      let broken;
      try {
        return await client.query(commit_sql, values);
      } catch (error) {
        if (typeof error?.code !== "string") broken = error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    actual_after_conflict: (error) => {
      if (error?.code !== "40001") return undefined;
      const actual = /actual version (-?\d+)$/.exec(error.message);
      if (!actual) throw new Error(`a 40001 without the actual version: ${error.message}`);
      return Number(actual[1]);
    },
    end: () => pool.end(),
  };
}

/**
 * act-pg: its store's own commit (read the last version, compare, insert,
 * commit). Its ConcurrencyError names the version it found; two commits that
 * pass the check at once meet the (stream, version) unique index (23505), which
 * says only that the next version is taken: the retry expects that one.
 */
async function act_pg_store(database) {
  const { PostgresStore } = await import("@rotorsoft/act-pg");
  const store = new PostgresStore({
    host: process.env.PGHOST, port: Number(process.env.PGPORT), user: process.env.PGUSER, password: "",
    database, schema: "public", table: "events", max: pool_size,
  });
  await store.drop();
  await store.seed();
  const meta = { correlation: "race", causation: {} };
  return {
    database,
    framework: `act-pg ${await package_version("@rotorsoft/act-pg")}`,
    commit: (stream, expected) => store.commit(stream, [event], meta, expected),
    actual_after_conflict: (error, expected) => {
      if (error?.name === "ERR_CONCURRENCY") return error.lastVersion;
      if (error?.code === "23505") return expected + 1;
      return undefined;
    },
    end: () => store.dispose(),
  };
}

const package_version = async (name) =>
  JSON.parse(await readFile(new URL(`node_modules/${name}/package.json`, import.meta.url))).version;
const pg_version = await package_version("pg");

/** One writer: tries until it lands; its time to land and its attempts. */
async function write(store, stream) {
  const start = performance.now();
  let expected = -1;
  for (let attempts = 1; ; attempts++) {
    try {
      await store.commit(stream, expected);
      return { ms: performance.now() - start, attempts };
    } catch (error) {
      const actual = store.actual_after_conflict(error, expected);
      if (actual === undefined) throw error;
      expected = actual;
    }
  }
}

const round = (store, stream) => Promise.all(Array.from({ length: writers }, () => write(store, stream)));

const clock_ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));
const read_or_null = (path) => readFile(path, "utf8").catch(() => null);

/**
 * The server's CPU seconds so far: each live client backend of the database
 * (the probe's own aside) by pid, from /proc/PID/schedstat (nanoseconds on a
 * CPU), and what the postmaster's exited children used (cutime + cstime of
 * /proc/POSTMASTER/stat), where a backend closed by its client ends up.
 */
async function server_cpu(database) {
  const probe = new pg.Client({ database });
  await probe.connect();
  const { rows } = await probe.query(
    `SELECT pid, pg_backend_pid() AS probe FROM pg_stat_activity
      WHERE datname = current_database() AND backend_type = 'client backend'`);
  // The probe's parent is the postmaster; fields after the command's ")".
  const probe_pid = rows.find((row) => row.pid === row.probe).pid;
  const probe_stat = (await read_or_null(`/proc/${probe_pid}/stat`)) ?? "";
  await probe.end();
  const postmaster = probe_stat.slice(probe_stat.lastIndexOf(")") + 2).split(" ")[1];
  const backends = new Map();
  for (const { pid, probe: own } of rows) {
    if (pid === own) continue;
    const stat = await read_or_null(`/proc/${pid}/schedstat`);
    if (stat) backends.set(pid, Number(stat.split(" ")[0]) / 1e9);
  }
  const fields = ((await read_or_null(`/proc/${postmaster}/stat`)) ?? "").split(")").pop().trim().split(" ");
  // Fields 16 and 17 of stat (cutime, cstime): 13 and 14 after the state.
  const reaped = (Number(fields[13]) + Number(fields[14])) / clock_ticks;
  return { backends, reaped };
}

/** CPU seconds the server used between two server_cpu readings. */
function used_between(before, after) {
  let seconds = after.reaped - before.reaped;
  for (const [pid, now] of after.backends) seconds += now - (before.backends.get(pid) ?? 0);
  // A backend that exited in between is in reaped, all of it.
  for (const [pid, then] of before.backends) if (!after.backends.has(pid)) seconds -= then;
  return seconds;
}

await main(async () => {
  const store_name = process.argv[2];
  const store = store_name === "pg_act" ? pg_act_store(true)
    : store_name === "pg_act_pool_query" ? pg_act_store(false)
    : store_name === "act_pg" ? await act_pg_store(process.argv[3])
    : (() => { throw new Error("usage: racing_writers.mjs pg_act | pg_act_pool_query | act_pg DATABASE"); })();
  const run = `race-${process.pid}-${Date.now()}`;
  await round(store, `${run}-warmup`);
  const server_before = await server_cpu(store.database);
  const client_before = process.cpuUsage();
  const start = performance.now();
  const landings = [];
  for (let r = 0; r < rounds; r++) landings.push(...await round(store, `${run}-${r}`));
  const seconds = (performance.now() - start) / 1000;
  const client = process.cpuUsage(client_before);
  const server_s = used_between(server_before, await server_cpu(store.database));
  await store.end();

  const times = landings.map((l) => l.ms).sort((a, b) => a - b);
  const attempts = landings.reduce((sum, l) => sum + l.attempts, 0);
  const fixed = (x, digits) => Number(x.toFixed(digits));
  console.log(JSON.stringify({
    scenario: `act/racing_writers_new_stream/${store_name}`,
    store: store_name,
    framework: store.framework,
    writers, pool: pool_size, rounds, landed: landings.length,
    landed_per_s: fixed(landings.length / seconds, 1),
    ops_per_s: fixed(landings.length / seconds, 1),
    p50_ms: fixed(times[Math.floor(times.length * 0.5)], 3),
    p95_ms: fixed(times[Math.min(times.length - 1, Math.floor(times.length * 0.95))], 3),
    latency_of: "time to land, retries and pool waits included",
    attempts_per_landed: fixed(attempts / landings.length, 2),
    client_cpu_s: fixed((client.user + client.system) / 1e6, 3),
    server_cpu_s: fixed(server_s, 3),
    server_cpu_ms_per_landed: fixed(server_s * 1000 / landings.length, 3),
  }));
});
