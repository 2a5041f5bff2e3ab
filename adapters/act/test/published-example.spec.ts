// The example Act publishes with its package (the README's "Quick start" in
// node_modules/@rotorsoft/act), read from the installed package at run time
// and run as it is printed there, with one line ahead of it: pg_act as the
// store (test/setup.ts). Nothing of it is kept in this repository.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { afterAll, describe, expect, it, vi } from "vitest";
import { on_empty_log, sql } from "./setup.js";

const readme = new URL("../node_modules/@rotorsoft/act/README.md", import.meta.url);
const scratch = new URL("../.published-example/", import.meta.url);

/** The first TypeScript block after a heading, as the README prints it. */
function code_after(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`the README has no "${heading}" section`);
  const block = /```ts\n([\s\S]*?)```/.exec(markdown.slice(at));
  if (!block?.[1]) throw new Error(`the README's "${heading}" section has no ts block`);
  return block[1];
}

describe("Act's published quick start on pg_act", () => {
  on_empty_log();
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("runs unchanged and its events are pg_act's, hash-chained", async () => {
    const example = code_after(await readFile(readme, "utf8"), "## Quick start");
    expect(example).toContain("app.do(");
    await mkdir(scratch, { recursive: true });
    const file = new URL("quick-start.ts", scratch);
    await writeFile(file, example);

    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      await import(/* @vite-ignore */ file.href);
      expect(logged).toHaveBeenCalledWith({ count: 5 });
    } finally {
      logged.mockRestore();
    }

    const pool = sql();
    try {
      const rows = await pool.query(
        "SELECT name, data FROM act.events WHERE stream = 'counter1' AND name NOT LIKE '\\_\\_%' ORDER BY version",
      );
      expect(rows.rows).toEqual([{ name: "Incremented", data: { amount: 5 } }]);
      const chain = await pool.query("SELECT valid, events::int AS events FROM act.verify('counter1')");
      expect(chain.rows).toEqual([{ valid: true, events: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
