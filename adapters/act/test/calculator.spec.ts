// A calculator session in the shape of Act's example apps (a state with
// invariants and snapshots, and a projection of every session's display),
// written for this suite; only the store line (test/setup.ts) is pg_act's.
import { act, cache, projection, state, ZodEmpty } from "@rotorsoft/act";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { actor, on_empty_log } from "./setup.js";

const Key = z.enum(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "*", "=", "C"]);
type Op = "+" | "-" | "*";
const apply = (op: Op, a: number, b: number): number => (op === "+" ? a + b : op === "-" ? a - b : a * b);

const Calculator = state({ Calculator: z.object({ display: z.string(), acc: z.number(), op: z.string().optional() }) })
  .init(() => ({ display: "0", acc: 0 }))
  .emits({
    Digit: z.object({ d: z.string() }),
    Operator: z.object({ op: z.enum(["+", "-", "*"]) }),
    Equals: ZodEmpty,
    Cleared: ZodEmpty,
  })
  .patch({
    Digit: ({ data }, s) => ({ display: s.display === "0" ? data.d : s.display + data.d }),
    Operator: ({ data }, s) => ({
      acc: s.op ? apply(s.op as Op, s.acc, Number(s.display)) : Number(s.display),
      op: data.op,
      display: "0",
    }),
    Equals: (_, s) => ({ display: String(s.op ? apply(s.op as Op, s.acc, Number(s.display)) : s.display), acc: 0, op: undefined }),
    Cleared: () => ({ display: "0", acc: 0, op: undefined }),
  })
  .on({ press: z.object({ key: Key }) })
  .given([{ description: "display fits", valid: (s) => s.display.length < 12 }])
  .emit(({ key }) => {
    if (key === "=") return ["Equals", {}];
    if (key === "C") return ["Cleared", {}];
    if (key === "+" || key === "-" || key === "*") return ["Operator", { op: key }];
    return ["Digit", { d: key }];
  })
  .snap((s) => s.patches >= 5)
  .build();

const board = new Map<string, number>();
const Board = projection("board")
  .on({ Equals: ZodEmpty })
  .do(async function equals(event) {
    board.set(event.stream, (board.get(event.stream) ?? 0) + 1);
  })
  .build();

const app = act().withState(Calculator).withProjection(Board).build();

const pg_act = on_empty_log(app);

const press = async (stream: string, keys: string): Promise<void> => {
  for (const key of keys) await app.do("press", { stream, actor }, { key: key as z.infer<typeof Key> });
};

describe("a calculator session", () => {
  it("computes, snapshots and projects", async () => {
    await press("calc-1", "12+30*2=");
    const loaded = await app.load(Calculator, "calc-1");
    expect(loaded.state.display).toBe("84");
    // snapshots were committed as __snapshot__ events and load starts from the latest
    const snaps = await app.query_array({ stream: "calc-1", stream_exact: true, with_snaps: true, names: ["__snapshot__"] });
    expect(snaps.length).toBeGreaterThan(0);
    await press("calc-2", "7*6=");
    expect((await app.load(Calculator, "calc-2")).state.display).toBe("42");
    await app.correlate({ limit: 1000 });
    for (let i = 0; i < 5; i++) if (!(await app.drain()).leased.length) break;
    expect(board.get("calc-1")).toBe(1);
    expect(board.get("calc-2")).toBe(1);
  });

  it("refuses a key that breaks the invariant", async () => {
    await press("calc-3", "123456789012"); // the 12th digit is pressed on an 11-digit display
    await expect(press("calc-3", "3")).rejects.toThrow("display fits");
    expect((await app.load(Calculator, "calc-3")).state.display).toBe("123456789012");
  });

  it("closes a session with restart: a snapshot seed, and the session goes on", async () => {
    await press("calc-4", "9*9=");
    await app.correlate({ limit: 1000 });
    for (let i = 0; i < 5; i++) if (!(await app.drain()).leased.length) break;
    const result = await app.close([{ stream: "calc-4", restart: true }]);
    expect(result.skipped).toEqual([]);
    const entry = result.truncated.get("calc-4")!;
    expect(entry.committed.name).toBe("__snapshot__");
    expect(entry.committed.version).toBe(0);
    expect(entry.committed.data).toMatchObject({ display: "81" });
    await press("calc-4", "+1=");
    expect((await app.load(Calculator, "calc-4")).state.display).toBe("82");
    const names = (await app.query_array({ stream: "calc-4", stream_exact: true, with_snaps: true })).map((e) => e.name);
    expect(names[0]).toBe("__snapshot__");
    expect(names.slice(1)).toEqual(["Operator", "Digit", "Equals"]);
  });

  it("loads the same state from the store alone (no cache)", async () => {
    await cache().clear();
    const { rows } = await pg_act().pool.query("SELECT count(*)::int AS n FROM act.query('calc-1', with_snaps => true)");
    expect(rows[0].n).toBeGreaterThan(0);
    const replayed = await app.load(Calculator, { stream: "calc-1" });
    expect(replayed.state.display).toBe("84");
  });
});
