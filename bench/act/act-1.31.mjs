// The reference's scenarios through Act 1.31 on one store: "pg_act"
// (PgActStore from adapters/act, on the database the PG* environment names)
// or "memory" (Act's own InMemoryStore). Act, zod and the adapter are the
// adapter's own install (adapters/act, its lock file pins them), so the
// adapter and this driver share one Act: Act's retries test errors with
// instanceof.
//   node act-1.31.mjs pg_act|memory
import { readFile } from "node:fs/promises";
import { main } from "./harness.mjs";
import { run_scenarios } from "./scenarios.mjs";

await main(async () => {
  const adapter = new URL("../../adapters/act/", import.meta.url);
  const Act = await import(new URL("node_modules/@rotorsoft/act/dist/index.js", adapter));
  const { z } = await import(new URL("node_modules/zod/index.js", adapter));
  const { version } = JSON.parse(await readFile(new URL("node_modules/@rotorsoft/act/package.json", adapter)));
  const which = process.argv[2];
  if (which === "pg_act") {
    const { PgActStore } = await import(new URL("dist/index.js", adapter));
    Act.store(new PgActStore({}));
  } else if (which !== "memory") {
    throw new Error(`unknown store "${which}": pg_act or memory`);
  }
  await run_scenarios({
    Act, z, version, store: which, framework: `act ${version}`,
    fresh: async () => {
      await Act.store().drop();
      await Act.store().seed();
      await Act.cache().clear();
    },
    clear_cache: () => Act.cache().clear(),
    with_state: (builder, S) => builder.withState(S),
    reaction_target: (target) => ({ target }),
    // The reference's calculator: one correlate (its default limit) and one drain a session.
    project: async (app) => {
      await app.correlate();
      await app.drain({ streamLimit: 100, eventLimit: 100 });
    },
  });
  await Act.dispose()();
});
