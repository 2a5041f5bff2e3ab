// Act's public API on pg_act: the app below is written as for any Act store;
// only test/setup.ts (store(new PgActStore(...))) ties it to pg_act.
import {
  act,
  ConcurrencyError,
  InMemoryStore,
  InvariantError,
  projection,
  sensitive,
  state,
  store,
  StreamClosedError,
  ZodEmpty,
} from "@rotorsoft/act";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { actor, sql, on_empty_log } from "./setup.js";

const Account = state({ Account: z.object({ balance: z.number(), owner: z.string().optional() }) })
  .init(() => ({ balance: 0 }))
  .emits({
    Opened: z.object({ owner: sensitive(z.string()), plan: z.string() }),
    Deposited: z.object({ amount: z.number() }),
    Withdrawn: z.object({ amount: z.number() }),
    Audited: z.object({ of: z.string() }),
    Flagged: ZodEmpty,
  })
  .patch({
    Opened: ({ data }) => ({ owner: data.owner }),
    Deposited: ({ data }, s) => ({ balance: s.balance + data.amount }),
    Withdrawn: ({ data }, s) => ({ balance: s.balance - data.amount }),
    Audited: () => ({}),
    Flagged: () => ({}),
  })
  .on({ open: z.object({ owner: z.string(), plan: z.string() }) })
  .emit((a) => ["Opened", a])
  .on({ deposit: z.object({ amount: z.number().positive() }) })
  .emit((a) => ["Deposited", a])
  .on({ withdraw: z.object({ amount: z.number().positive() }) })
  .given([{ description: "no overdraft", valid: (s) => s.balance >= 0 }])
  .emit((a, { state: s }) => {
    if (s.balance < a.amount) throw new Error("insufficient funds");
    return ["Withdrawn", a];
  })
  .on({ audit: z.object({ of: z.string() }) })
  .emit((a) => ["Audited", a])
  .on({ flag: ZodEmpty })
  .emit(() => ["Flagged", {}])
  .build();

// What reactions and projections saw, per test.
const audited: string[] = [];
const totals = new Map<string, number>();
let failures = 0;
let fail_next = 0;

const Totals = projection("totals")
  .on({ Deposited: z.object({ amount: z.number() }) })
  .do(async function total(event) {
    totals.set(event.stream, (totals.get(event.stream) ?? 0) + event.data.amount);
  })
  .build();

const app = act()
  .withState(Account)
  .withProjection(Totals)
  .withLane({ name: "slow", leaseMillis: 5_000 })
  // A reaction that writes: an audit entry per deposit, on the audit stream.
  .on("Deposited")
  .do(async function audit(event, _stream, app) {
    audited.push(`${event.stream}:${event.data.amount}`);
    await app.do("audit", { stream: `audit-${event.stream}`, actor }, { of: event.stream }, { reactingTo: event });
  })
  .to((event) => ({ target: `audit-${event.stream}` }))
  // A reaction on its own lane, which fails while fail_next > 0.
  .on("Flagged")
  .do(
    async function flag() {
      if (fail_next > 0) {
        fail_next--;
        failures++;
        throw new Error("downstream is down");
      }
      audited.push("flag-handled");
    },
    { blockOnError: true, maxRetries: 0 }
  )
  .to({ target: "flags", lane: "slow" })
  .build();

/** app.settle() until its "settled" event. */
function settle(): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      app.off("settled", done);
      resolve();
    };
    app.on("settled", done);
    app.settle({ debounceMs: 0, maxPasses: 20 });
  });
}

on_empty_log(app);

describe("actions and invariants", () => {
  it("commits, loads, and returns Committed events as Act's stores do", async () => {
    const [snap] = await app.do("open", { stream: "acc-1", actor }, { owner: "Ann Smith", plan: "pro" });
    const [dep] = await app.do("deposit", { stream: "acc-1", actor }, { amount: 50 });
    const e = dep!.event!;
    expect(typeof e.id).toBe("number");
    expect(e.id).toBeGreaterThan(snap!.event!.id);
    expect(e.version).toBe(1);
    expect(e.created).toBeInstanceOf(Date);
    expect(Math.abs(e.created.getTime() - Date.now())).toBeLessThan(60_000);
    expect(e.meta.correlation).toBeTypeOf("string");
    expect(e.meta.causation.action?.stream).toBe("acc-1");
    expect(e.meta.causation.action?.actor.id).toBe("u-1");
    const loaded = await app.load(Account, "acc-1");
    expect(loaded.state.balance).toBe(50);
    expect(loaded.version).toBe(1);
    // the same events read through the port
    const read = await app.query_array({ stream: "acc-1", stream_exact: true });
    expect(read.map((r) => [r.name, r.version])).toEqual([
      ["Opened", 0],
      ["Deposited", 1],
    ]);
    expect(read[1]!.created.getTime()).toBe(e.created.getTime());
  });

  it("refuses an action its invariant or handler forbids, and writes nothing", async () => {
    await app.do("deposit", { stream: "acc-2", actor }, { amount: 10 });
    await expect(app.do("withdraw", { stream: "acc-2", actor }, { amount: 30 })).rejects.toThrow(
      "insufficient funds"
    );
    const events = await app.query_array({ stream: "acc-2", stream_exact: true });
    expect(events).toHaveLength(1);
    await expect(app.do("deposit", { stream: "acc-2", actor }, { amount: -1 })).rejects.toThrow();
  });

  it("checks invariants on the loaded state", async () => {
    // a negative balance can only be reached around the action; then withdraw's invariant fails
    await store().commit("acc-neg", [{ name: "Withdrawn", data: { amount: 5 } }], { correlation: "x", causation: {} });
    await expect(app.do("withdraw", { stream: "acc-neg", actor }, { amount: 1 })).rejects.toBeInstanceOf(
      InvariantError
    );
  });

  it("raises ConcurrencyError on a stale expected version", async () => {
    await app.do("deposit", { stream: "acc-3", actor }, { amount: 1 });
    await app.do("deposit", { stream: "acc-3", actor }, { amount: 1 });
    const error = await app
      .do("deposit", { stream: "acc-3", actor, expectedVersion: 0 }, { amount: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect((error as ConcurrencyError).lastVersion).toBe(1);
    expect((error as ConcurrencyError).expectedVersion).toBe(0);
  });
});

describe("reactions, correlate, drain, settle, projections", () => {
  it("correlate + drain run the reaction once, with causation pointing at the trigger", async () => {
    audited.length = 0;
    totals.clear();
    const [dep] = await app.do("deposit", { stream: "acc-r", actor }, { amount: 7 });
    await app.correlate();
    await app.drain();
    await app.correlate();
    await app.drain();
    // the earlier tests' deposits were waiting too: each handled once
    expect(audited.filter((a) => a === "acc-r:7")).toHaveLength(1);
    expect(audited).toContain("acc-1:50");
    const handled = audited.length;
    expect(handled).toBeGreaterThan(1);
    const [entry] = await app.query_array({ stream: "audit-acc-r", stream_exact: true });
    expect(entry!.name).toBe("Audited");
    expect(entry!.meta.causation.event).toEqual({ id: dep!.event!.id, name: "Deposited", stream: "acc-r" });
    expect(entry!.meta.correlation).toBe(dep!.event!.meta.correlation);
    // a second drain finds nothing more
    const again = await app.drain();
    expect(again.acked.filter((l) => l.stream === "audit-acc-r")).toHaveLength(0);
    expect(audited).toHaveLength(handled);
  });

  it("settle drains everything, the projection included, and emits settled", async () => {
    audited.length = 0;
    totals.clear();
    for (let i = 1; i <= 5; i++) await app.do("deposit", { stream: `acc-s${i % 2}`, actor }, { amount: i });
    await settle();
    expect(audited.sort()).toEqual(["acc-s0:2", "acc-s0:4", "acc-s1:1", "acc-s1:3", "acc-s1:5"]);
    // the projection sees only what it had not seen: the earlier tests' deposits came before its last ack
    expect(totals.get("acc-s1")).toBe(9);
    expect(totals.get("acc-s0")).toBe(6);
    const positions: string[] = [];
    await store().query_streams((p) => positions.push(`${p.stream}@${p.at}`), { stream: "^totals$" });
    expect(positions).toHaveLength(1);
  });

  it("a reset projection replays the whole history", async () => {
    totals.clear();
    expect(await app.reset(["totals"])).toBe(1);
    await app.correlate();
    for (let i = 0; i < 10; i++) {
      const d = await app.drain();
      if (!d.leased.length) break;
    }
    // every deposit of every test so far: 50 + 10 + 1 + 1 + 7 + (1..5)
    const sum = [...totals.values()].reduce((a, b) => a + b, 0);
    expect(sum).toBe(50 + 10 + 1 + 1 + 7 + 15);
  });
});

describe("lanes, blocking and unblocking", () => {
  it("a lane's target is claimed on that lane only", async () => {
    await app.do("flag", { stream: "acc-l", actor }, {});
    await app.correlate();
    const positions = new Map<string, string | undefined>();
    await store().query_streams((p) => positions.set(p.stream, p.lane), { stream: "^flags$" });
    expect(positions.get("flags")).toBe("slow");
    // a worker of the default lane does not get it
    const other = await store().claim(10, 10, "probe", 1000, "default");
    expect(other.map((l) => l.stream)).not.toContain("flags");
    await store().ack(other);
  });

  it("a failing reaction blocks its stream; unblock resumes it at its watermark", async () => {
    audited.length = 0;
    fail_next = 1;
    await app.correlate();
    for (let i = 0; i < 5; i++) await app.drain();
    expect(failures).toBe(1);
    const blocked = await app.blocked_streams();
    const flags = blocked.find((b) => b.stream === "flags");
    expect(flags?.error).toContain("downstream is down");
    expect(audited).not.toContain("flag-handled");
    expect(await app.unblock(["flags"])).toBe(1);
    await app.correlate();
    for (let i = 0; i < 5; i++) await app.drain();
    expect(audited).toContain("flag-handled");
    expect((await app.blocked_streams()).find((b) => b.stream === "flags")).toBeUndefined();
  });

  it("prioritize changes a subscription's priority", async () => {
    expect(await app.prioritize({ stream: "^flags$" }, 7)).toBe(1);
    const p: number[] = [];
    await store().query_streams((x) => p.push(x.priority), { stream: "flags", stream_exact: true });
    expect(p).toEqual([7]);
  });
});

describe("close the books", () => {
  it("close tombstones a stream: the store and Act refuse further actions", async () => {
    await app.do("deposit", { stream: "acc-c", actor }, { amount: 3 });
    await settle();
    const result = await app.close([{ stream: "acc-c" }]);
    expect(result.skipped).toEqual([]);
    const entry = result.truncated.get("acc-c");
    expect(entry?.committed.name).toBe("__tombstone__");
    expect(entry?.committed.version).toBe(0);
    expect(entry!.deleted).toBeGreaterThanOrEqual(2); // the deposit and the guard
    await expect(app.do("deposit", { stream: "acc-c", actor }, { amount: 1 })).rejects.toBeInstanceOf(
      StreamClosedError
    );
    // below Act, the database refuses too
    await expect(
      store().commit("acc-c", [{ name: "Deposited", data: { amount: 1 } }], { correlation: "", causation: {} })
    ).rejects.toBeInstanceOf(StreamClosedError);
  });

  it("close with restart is refused for a state with personal data (Act's rule)", async () => {
    await app.do("deposit", { stream: "acc-x", actor }, { amount: 4 });
    await settle();
    const result = await app.close([{ stream: "acc-x", restart: true }]);
    expect(result.skipped).toEqual(["acc-x"]);
    expect((await app.load(Account, "acc-x")).state.balance).toBe(4);
  });

  it("close skips a stream a reaction still has to read", async () => {
    await app.do("deposit", { stream: "acc-y", actor }, { amount: 2 });
    await app.correlate();
    // the audit reaction has not run yet: closing now would lose its input
    const result = await app.close([{ stream: "acc-y" }]);
    expect(result.skipped).toEqual(["acc-y"]);
    expect(result.truncated.size).toBe(0);
    await settle();
    expect((await app.close([{ stream: "acc-y" }])).skipped).toEqual([]);
  });

  it("truncate to a snapshot (Act's restart seed) keeps the state loadable", async () => {
    await app.do("deposit", { stream: "acc-k", actor }, { amount: 4 });
    await app.do("deposit", { stream: "acc-k", actor }, { amount: 6 });
    const before = await app.load(Account, "acc-k");
    const truncated = await store().truncate([
      { stream: "acc-k", snapshot: before.state, meta: { correlation: "close-k", causation: {} } },
    ]);
    const entry = truncated.get("acc-k")!;
    expect(entry.deleted).toBe(2);
    expect(entry.committed.name).toBe("__snapshot__");
    expect(entry.committed.version).toBe(0);
    expect(entry.committed.data).toEqual(before.state);
    expect(entry.committed.created).toBeInstanceOf(Date);
    await app.do("deposit", { stream: "acc-k", actor }, { amount: 1 });
    const all = await app.query_array({ stream: "acc-k", stream_exact: true, with_snaps: true });
    expect(all.map((e) => e.name)).toEqual(["__snapshot__", "Deposited"]);
    expect(all[0]!.id).toBe(entry.committed.id);
    expect(all[0]!.created.getTime()).toBe(entry.committed.created.getTime());
  });

  it("the hash chains of the closed and live streams verify", async () => {
    const pool = sql();
    const { rows } = await pool.query("SELECT stream, valid FROM act.verify() WHERE NOT valid");
    await pool.end();
    expect(rows).toEqual([]);
  });
});

describe("personal data", () => {
  it("keeps sensitive fields out of data, shows them to their reader, and forget erases them", async () => {
    await app.do("open", { stream: "acc-p", actor }, { owner: "Bo Privacy", plan: "free" });
    const pool = sql();
    const raw = await pool.query("SELECT data, pii FROM act.events WHERE stream = 'acc-p'");
    expect(raw.rows[0].data).toEqual({ plan: "free" });
    expect(raw.rows[0].pii).toEqual({ owner: "Bo Privacy" });
    const [opened] = await app.query_array({ stream: "acc-p", stream_exact: true });
    expect((opened as { pii?: unknown }).pii ?? opened!.data).toBeDefined();
    const { eventCount } = await app.forget("acc-p");
    expect(eventCount).toBe(1);
    const after = await pool.query("SELECT data, pii FROM act.events WHERE stream = 'acc-p'");
    expect(after.rows[0].pii).toBeNull();
    expect(after.rows[0].data).toEqual({ plan: "free" });
    const chain = await pool.query("SELECT valid FROM act.verify('acc-p')");
    expect(chain.rows[0].valid).toBe(true);
    await pool.end();
    expect((await app.forget("acc-p")).eventCount).toBe(0);
    const loaded = await app.load(Account, "acc-p");
    expect(loaded.state.owner).not.toBe("Bo Privacy");
  });
});

describe("restore", () => {
  it("restores another store's events: ids renumbered, created kept, all or nothing", async () => {
    const source = new InMemoryStore();
    const meta = { correlation: "r-1", causation: {} };
    await source.commit("old-1", [{ name: "Deposited", data: { amount: 1 } }], meta);
    await new Promise((r) => setTimeout(r, 20));
    await source.commit("old-1", [{ name: "Deposited", data: { amount: 2 } }], meta);
    await source.commit("old-2", [{ name: "Deposited", data: { amount: 3 } }], meta);
    const originals: Date[] = [];
    await source.query((e) => void originals.push(e.created));
    const result = await app.restore(source);
    expect(result).toBeDefined();
    const restored = await app.query_array({});
    expect(restored.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(restored.map((e) => e.created.getTime())).toEqual(originals.map((d) => d.getTime()));
    expect(restored[0]!.meta).toEqual(meta);
    // a driver that throws leaves the store as it was
    const failing = {
      query: async () => {
        throw new Error("source unreadable");
      },
      dispose: async () => undefined,
    };
    await expect(app.restore(failing as never)).rejects.toThrow();
    expect((await app.query_array({})).map((e) => e.id)).toEqual([1, 2, 3]);
  });
});
