// Gap safety through Act: a commit still in flight when a later one is
// visible. Act's correlate and drain remember the last id they read; on
// pg_act they read nothing past act.horizon(), so the earlier event is
// handled when it lands, never skipped. In concurrent mode the later commit
// goes through at once; in fenced mode it waits at the fence. Act's
// correlate, disarmed by a pass that found nothing new, is woken by the
// store's notify when the horizon passes the events it held back.
import { act, projection, state } from "@rotorsoft/act";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { actor, on_empty_log } from "./setup.js";

const Tally = state({ Tally: z.object({ n: z.number() }) })
  .init(() => ({ n: 0 }))
  .emits({ Counted: z.object({ by: z.number() }) })
  .patch({ Counted: ({ data }, s) => ({ n: s.n + data.by }) })
  .on({ count: z.object({ by: z.number() }) })
  .emit((a) => ["Counted", a])
  .build();

const seen: number[] = [];
const Seen = projection("seen")
  .on({ Counted: z.object({ by: z.number() }) })
  .do(async function record(event) {
    seen.push(event.id);
  })
  .build();

const app = act().withState(Tally).withProjection(Seen).build();
const pg_act = on_empty_log(app);

const catch_up = async (): Promise<void> => {
  await app.correlate({ limit: 1000 });
  for (let i = 0; i < 5; i++) if (!(await app.drain()).leased.length) break;
};

describe("gap safety", () => {
  it("an event committed out of id order is handled once it lands, never skipped", async () => {
    const { rows } = await pg_act().pool.query<{ mode: string }>("SELECT act.mode() AS mode");
    const concurrent = rows[0]!.mode === "concurrent";
    await app.do("count", { stream: "g-0", actor }, { by: 1 });
    await catch_up();
    expect(seen).toHaveLength(1);

    // a writer takes the next id and keeps its transaction open
    const slow = new pg.Client();
    await slow.connect();
    await slow.query("BEGIN");
    const held = await slow.query<{ id: string }>(
      `SELECT id FROM act.commit('g-1', '[{"name": "Counted", "data": {"by": 2}}]',
                                 '{"correlation": "slow", "causation": {}}')`
    );
    const held_id = Number(held.rows[0]!.id);
    let landed = false;
    const later = app.do("count", { stream: "g-2", actor }, { by: 3 }).then((s) => {
      landed = true;
      return s;
    });
    await new Promise((r) => setTimeout(r, 300));
    // concurrent mode: the later commit is visible, above the one in flight;
    // fenced mode: it waits for the fence the open transaction holds
    expect(landed).toBe(concurrent);
    if (concurrent) {
      await catch_up();
      expect(seen).toHaveLength(1); // nothing past the horizon was read
    }
    await slow.query("COMMIT");
    await slow.end();
    const [snap] = await later;
    // Act disarms its correlate after a pass that read nothing new; the
    // store's wake-up once the horizon passes the held-back events re-arms it
    for (let i = 0; i < 50 && seen.length < 3; i++) {
      await catch_up();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([seen[0], held_id, snap!.event!.id]);
    expect(held_id).toBeLessThan(snap!.event!.id);
  });
});
