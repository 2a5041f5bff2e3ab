// The port's methods where Act's API does not reach them directly: notify,
// the query mapping, and the lease rules the adapter maps.
import { store } from "@rotorsoft/act";
import type { StoreNotification } from "@rotorsoft/act";
import { describe, expect, it } from "vitest";
import type { PgActStore } from "../src/index.js";
import { new_store, on_empty_log } from "./setup.js";

const meta = { correlation: "c-1", causation: {} };
const pg_act = on_empty_log();

describe("the port on pg_act", () => {
  it("notify tells one store of another's commit, never of its own", async () => {
    const listener = new_store({ notify: true });
    const writer = new_store({ notify: true });
    const seen: StoreNotification[] = [];
    const stop = await listener.notify!((n) => seen.push(n));
    await listener.commit("n-own", [{ name: "A", data: {} }], meta);
    const [c] = await writer.commit("n-1", [{ name: "A", data: {} }, { name: "B", data: {} }], meta);
    for (let i = 0; i < 50 && !seen.length; i++) await new Promise((r) => setTimeout(r, 20));
    await stop();
    await listener.dispose();
    await writer.dispose();
    expect(seen).toEqual([{ stream: "n-1", events: [{ id: c!.id, name: "A" }, { id: c!.id + 1, name: "B" }] }]);
  });

  it("reads with Act's query semantics", async () => {
    await pg_act().commit("q-1", [{ name: "A", data: { at: new Date("2026-01-02T03:04:05.000Z") } }], meta);
    await pg_act().commit("q-1", [{ name: "__snapshot__", data: { n: 1 } }, { name: "B", data: {} }], meta);
    await pg_act().commit("q-2", [{ name: "A", data: {} }], meta);
    const names = async (q?: Parameters<PgActStore["query"]>[1]): Promise<string[]> => {
      const out: string[] = [];
      await pg_act().query((e) => void out.push(`${e.stream}.${String(e.name)}`), q);
      return out;
    };
    expect(await names({ stream: "q-" })).toEqual(["q-1.A", "q-1.B", "q-2.A"]); // a pattern unless stream_exact
    expect(await names({ stream: "q-1", stream_exact: true, with_snaps: true })).toEqual(["q-1.__snapshot__", "q-1.B"]);
    expect(await names({ stream: "q-", names: [] })).toEqual([]);
    expect(await names({ stream: "q-", backward: true, limit: 1 })).toEqual(["q-2.A"]);
    expect(await names({ correlation: "nope" })).toEqual([]);
    const dated: unknown[] = [];
    await pg_act().query((e) => void dated.push((e.data as { at?: unknown }).at), { stream: "q-1", stream_exact: true, names: ["A"] });
    expect(dated[0]).toBeInstanceOf(Date);
  });

  it("acks an empty lease at the furthest reachable id instead of failing the batch", async () => {
    await pg_act().commit("src-1", [{ name: "A", data: {} }], meta);
    await pg_act().commit("elsewhere", [{ name: "A", data: {} }, { name: "A", data: {} }], meta);
    const [src] = await pg_act().query_stats(["src-1"]).then((m) => [...m.values()]);
    // marked as Act's correlate marks it: at the event that resolved to it
    await pg_act().subscribe([{ stream: "t-lit", source: "src-1", correlated_at: src!.head.id }]);
    const leases = await pg_act().claim(5, 0, "w-1", 10_000, "default");
    const lease = leases.find((l) => l.stream === "t-lit")!;
    expect(lease).toBeDefined();
    // Act acks an empty fetch at the furthest id any lease of the cycle read
    const acked = await pg_act().ack([{ ...lease, at: 1_000_000 }]);
    const positions: number[] = [];
    await pg_act().query_streams((p) => positions.push(p.at), { stream: "t-lit", stream_exact: true });
    // the furthest a read could reach here: the horizon, the log's last id (nothing in flight)
    const last: number[] = [];
    await pg_act().query((e) => void last.push(e.id), { backward: true, limit: 1 });
    expect(acked).toHaveLength(1);
    expect(acked[0]!.at).toBe(last[0]);
    expect(positions).toEqual([last[0]]);
    // other leases in other lanes were left alone
    await store().ack(leases.filter((l) => l.stream !== "t-lit"));
  });

  it("query_stats maps heads, counts and guards", async () => {
    const stats = await pg_act().query_stats(["q-1", "none"], { count: true, names: true, tail: true });
    expect([...stats.keys()]).toEqual(["q-1"]);
    const q1 = stats.get("q-1")!;
    expect(q1.count).toBe(3);
    expect(q1.names).toEqual({ A: 1, B: 1, __snapshot__: 1 });
    expect(q1.head.name).toBe("B");
    expect(q1.tail?.name).toBe("A");
    expect(q1.head.created).toBeInstanceOf(Date);
    expect(await pg_act().query_stats(["q-1"], { limit: 0 })).toEqual(new Map());
  });
});
