// The reference's scenarios through Act 0.5.6 on its last published Postgres
// store (@rotorsoft/act-pg 0.4.6; this directory's lock file pins both), on
// database DATABASE of the cluster the PG* environment names. Act 0.5 has no
// state cache (each action and load replays the stream: no warm-load
// scenario) and no correlate (the calculator's projection is one drain).
//   node act-pg.mjs DATABASE
import * as Act from "@rotorsoft/act";
import { PostgresStore } from "@rotorsoft/act-pg";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { main, says_concurrency } from "./harness.mjs";
import { run_scenarios } from "./scenarios.mjs";

const version = async (name) =>
  JSON.parse(await readFile(new URL(`node_modules/${name}/package.json`, import.meta.url))).version;

await main(async () => {
  const { PGHOST: host, PGPORT: port, PGUSER: user } = process.env;
  const settings = { host, port: Number(port), user, password: "", schema: "public", table: "events" };
  Act.store(new PostgresStore({ ...settings, database: process.argv[2] }));
  await run_scenarios({
    Act, z, version: await version("@rotorsoft/act"), store: "act_pg",
    framework: `act ${await version("@rotorsoft/act")}, act-pg ${await version("@rotorsoft/act-pg")}`,
    fresh: async () => {
      await Act.store().drop();
      await Act.store().seed();
    },
    with_state: (builder, S) => builder.with(S),
    reaction_target: (target) => target,
    // 0.5 sets a drain's limit (streams and events) when the app is built:
    // 100, the reference's limits on 1.31's drain.
    build_reactive: (builder) => builder.build(100),
    project: (app) => app.drain(),
    // act-pg 0.4.6 checks the expected version outside a lock: of two commits
    // that pass the check at once, the second meets the (stream, version)
    // unique index and fails with 23505, not ConcurrencyError. An app retries both.
    is_conflict: (error) => says_concurrency(error) || error?.code === "23505",
  });
  await Act.dispose()();
});
