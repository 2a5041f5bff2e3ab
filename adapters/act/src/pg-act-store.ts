// Act's Store port over pg_act's SQL functions: each method is one call of
// the function that does its work (docs/reference.md), in one round trip.
import { ConcurrencyError, StoreError, StreamClosedError, ValidationError } from "@rotorsoft/act";
import type {
  BlockedLease,
  Committed,
  EventMeta,
  Lease,
  Message,
  NotifyDisposer,
  Query,
  QueryStatsOptions,
  QueryStreams,
  QueryStreamsResult,
  Schema,
  Schemas,
  Store,
  StoreNotification,
  StreamFilter,
  StreamPosition,
  StreamStats,
  SubscribeInput,
  SubscribeResult,
  TruncateResult,
} from "@rotorsoft/act";
import pg from "pg";
import {
  GUARD_EVENT,
  RESTORED_CREATED,
  to_ack_entry,
  to_blocked_lease,
  to_committed,
  to_lease,
  to_name_counts,
  to_position,
  to_selector,
  to_store_name,
  to_store_names,
  type EventRow,
  type LeaseRow,
  type SubscriptionRow,
} from "./mapping.js";

/**
 * pg's pool settings (host, port, database, user, password, connectionString,
 * max, ... as Act's Postgres store took them), or a pool the application owns.
 */
export type PgActStoreOptions = pg.PoolConfig & {
  /** A pool the application owns: the store uses it and never ends it. */
  readonly pool?: pg.Pool;
  /**
   * Offer `notify`: LISTEN on `act_commit` and wake Act on other processes'
   * commits. A pool the store makes then sets `act.notify = on` in its
   * sessions (pg_act's default in fenced mode, off in concurrent mode, where
   * a NOTIFY serializes commits). Default false, as Act's own Postgres store.
   */
  readonly notify?: boolean;
};

/**
 * The event names every subscription this store creates reacts to: a name no
 * event carries. pg_act raises the work mark of a subscription at commit for
 * the events of its source whose name it lists, and back-fills a new one from
 * history; with this name neither happens, and the mark moves only by the
 * `correlated_at` Act's correlate sends, which is how Act's own stores work
 * (a mark means "an event resolved to this target"). Act's close-the-books
 * reads the marks to tell streams with pending reactions from idle ones: marks
 * set by every commit to a source would make it skip streams no reaction is
 * waiting for.
 */
export const MARKED_BY_CORRELATE = "__marked_by_act_correlate__";

/** How many one-second waits for the horizon after a held-back read (a minute). */
const HORIZON_WAITS = 60;

/** pg_act's longest lease (act.claim's `millis`, the correlator's). */
const MAX_LEASE_MS = 3_600_000;
const clamp_lease = (millis: number): number => Math.max(0, Math.min(MAX_LEASE_MS, Math.trunc(millis)));

type PgError = Error & { code?: string; detail?: string };

// act.ack refuses a watermark no read could have reached (above the horizon,
// or above the head of a literal source). Act acks a lease whose fetch came
// back empty at the furthest id any lease of the cycle fetched: for such a
// lease every id up to the reachable bound is equivalent, so the adapter
// lowers `at` to that bound in the same statement instead of failing the
// whole batch. The pattern test is pg_act's (a source holding one of
// ^ $ . * + ? ( ) [ ] { } | \ is a regular expression).
const ACK_SQL = `
SELECT a.* FROM act.ack((
  SELECT coalesce(jsonb_agg(
           CASE WHEN (x.e->>'at')::bigint <= reach.bound THEN x.e
                ELSE jsonb_set(x.e, '{at}', to_jsonb(reach.bound)) END ORDER BY x.o), '[]'::jsonb)
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, o)
    LEFT JOIN act.subscriptions s ON s.stream = x.e->>'stream'
    CROSS JOIN LATERAL (
      SELECT GREATEST(act.horizon(),
                      CASE WHEN s.source IS NOT NULL AND s.source !~ '[][^$.*+?(){}|\\\\]'
                           THEN (SELECT max(ev.id) FROM act.events ev WHERE ev.stream = s.source) END,
                      -1) AS bound) reach
)) a`;

// Act 1.31 writes a subscription's lane only from a subscribe whose priority
// is at or above the stored one (the highest priority owns the lane);
// act.subscribe takes the lane given. Entries below the stored priority
// carry the stored lane, decided in the same statement.
const SUBSCRIBE_SQL = `
SELECT r.* FROM act.subscribe((
  SELECT coalesce(jsonb_agg(
           CASE WHEN s.priority > coalesce((x.e->>'priority')::int, 0) THEN jsonb_set(x.e, '{lane}', to_jsonb(s.lane))
                ELSE x.e END ORDER BY x.o), '[]'::jsonb)
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, o)
    LEFT JOIN act.subscriptions s ON s.stream = x.e->>'stream'
), $2::bigint, $3::jsonb) r`;

// The seed of a full target is written by this transaction, so its `created`
// is now(); a windowed target's boundary snapshot was there before the
// statement began and is read beside the call.
const TRUNCATE_SQL = `
SELECT t.stream, t.deleted, t.id, t.version, t.name, t.before, now() AS seeded,
       e.data, e.meta, e.created
  FROM act.truncate($1::jsonb) t
  LEFT JOIN act.events e ON t.before IS NOT NULL AND e.id = t.id`;

const QUERY_STREAMS_SQL = `
SELECT act.max_event_id() AS max_event_id,
       (SELECT coalesce(jsonb_agg(to_jsonb(q) ORDER BY q.stream COLLATE "C"), '[]'::jsonb)
          FROM act.query_streams($1::jsonb, $2, $3) q) AS positions`;

export class PgActStore implements Store {
  readonly pool: pg.Pool;
  private readonly owns_pool: boolean;
  private readonly own_pids = new Set<number>();
  private listener?: pg.PoolClient;
  private readonly listens: boolean;
  private readonly handlers = new Set<(notification: StoreNotification) => void>();
  private watching = false;
  private disposed = false;

  constructor(options: PgActStoreOptions | string = {}) {
    const { pool, notify, ...settings }: PgActStoreOptions =
      typeof options === "string" ? { connectionString: options } : options;
    this.owns_pool = !pool;
    // A pool the store makes turns act.notify on in its sessions when asked;
    // the application's own pool keeps the sessions' setting (the server's,
    // or ALTER ROLE ... SET act.notify = on).
    this.pool =
      pool ??
      new pg.Pool({
        ...settings,
        ...(notify ? { options: `${settings.options ?? ""} -c act.notify=on`.trim() } : {}),
      });
    this.listens = notify === true;
    if (notify) {
      // NOTIFY carries the sending backend's pid: commits made through this
      // store's connections are its own, and Act wants only other processes'.
      this.pool.on("acquire", (client) => {
        const pid = (client as unknown as { processID?: number }).processID;
        if (pid !== undefined) this.own_pids.add(pid);
      });
    }
  }

  async dispose(): Promise<void> {
    // Act disposes its ports at exit too: a second call has nothing left to do.
    if (this.disposed) return;
    this.disposed = true;
    if (this.listener) {
      this.listener.release(true);
      this.listener = undefined;
    }
    if (this.owns_pool) await this.pool.end();
  }

  /**
   * One statement on a pooled connection. `pg`'s `Pool.query` closes the
   * connection after any failed query; an error the server raised (it has a
   * SQLSTATE: a 40001 conflict, a 22023) leaves the connection idle and
   * usable, so it goes back to the pool. Under contention that is the
   * difference between reusing connections and opening one per conflict.
   */
  private async run<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
    name?: string
  ): Promise<pg.QueryResult<R>> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      return await client.query<R>(name ? { name, text, values } : { text, values });
    } catch (error) {
      const sqlstate = (error as { code?: unknown }).code;
      if (typeof sqlstate !== "string") broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** `CREATE EXTENSION IF NOT EXISTS pg_act`: a superuser's (or the database owner's with the extension already there). */
  async seed(): Promise<void> {
    await this.run("CREATE EXTENSION IF NOT EXISTS pg_act");
  }

  /** Every event and subscription gone: the extension dropped; `seed()` makes an empty store again. */
  async drop(): Promise<void> {
    await this.run("DROP EXTENSION IF EXISTS pg_act CASCADE");
  }

  async commit<E extends Schemas>(
    stream: string,
    msgs: Message<E, keyof E>[],
    meta: EventMeta,
    expectedVersion?: number
  ): Promise<Committed<E, keyof E>[]> {
    const events = msgs.map(({ name, data, pii }) => ({
      name: to_store_name(String(name)),
      data: data ?? {},
      ...(pii === undefined || pii === null ? {} : { pii }),
    }));
    try {
      const { rows } = await this.run<EventRow>(
        "SELECT * FROM act.commit($1, $2::jsonb, $3::jsonb, $4::bigint)",
        [stream, JSON.stringify(events), JSON.stringify(meta ?? {}), expectedVersion ?? null]
      );
      return rows.map((row) => to_committed<E>(row));
    } catch (error) {
      throw commit_error(error as PgError, stream, msgs as Message<Schemas, keyof Schemas>[], expectedVersion);
    }
  }

  async query<E extends Schemas>(callback: (event: Committed<E, keyof E>) => void, query?: Query): Promise<number> {
    const q = query ?? {};
    const { rows } = await this.run<EventRow>(
      `SELECT * FROM act.query(stream => $1, after => $2, before => $3, names => $4, max_events => $5,
                               backward => $6, stream_exact => $7, created_after => $8, created_before => $9,
                               correlation => $10, with_snaps => $11)`,
      [
        q.stream || null,
        q.after ?? null,
        q.before ?? null,
        q.names ? to_store_names(q.names) : null,
        q.limit ?? null,
        q.backward ?? false,
        q.stream_exact === true,
        q.created_after ?? null,
        q.created_before ?? null,
        q.correlation || null,
        // No query at all reads everything, snapshots included, as Act's stores do.
        query === undefined ? true : (q.with_snaps ?? false),
      ],
      // Prepared once per connection: every load runs it, and planning a
      // call with eleven arguments cost as much as reading 100 events.
      "act_query"
    );
    for (const row of rows) await callback(to_committed<E>(row));
    const tail_read = q.after !== undefined && !(q.stream && q.stream_exact) && !q.backward;
    if (this.handlers.size && tail_read && !(q.limit && rows.length >= q.limit))
      void this.watch_horizon(Math.max(q.after ?? -1, ...rows.map((r) => Number(r.id))));
    return rows.length;
  }

  async claim(lagging: number, leading: number, by: string, millis: number, lane?: string): Promise<Lease[]> {
    try {
      const { rows } = await this.run<LeaseRow>("SELECT * FROM act.claim($1, $2, $3, $4, $5)", [
        Math.max(0, lagging),
        Math.max(0, leading),
        by,
        clamp_lease(millis),
        lane ?? null,
      ]);
      return rows.map(to_lease);
    } catch (error) {
      throw new StoreError("claim", { cause: error });
    }
  }

  async subscribe(
    streams: SubscribeInput[],
    correlated_at?: number,
    correlator?: { key: string; by: string; millis: number }
  ): Promise<SubscribeResult> {
    const entries = streams.map((s) => ({
      stream: s.stream,
      ...(s.source === undefined ? {} : { source: s.source }),
      names: [MARKED_BY_CORRELATE],
      ...(s.priority === undefined ? {} : { priority: s.priority }),
      ...(s.lane === undefined ? {} : { lane: s.lane }),
      ...(s.correlated_at === undefined ? {} : { correlated_at: s.correlated_at }),
    }));
    const lease = correlator
      ? JSON.stringify({ key: correlator.key, by: correlator.by, millis: Math.min(MAX_LEASE_MS, Math.trunc(correlator.millis)) })
      : null;
    try {
      const { rows } = await this.run<{
        subscribed: number;
        watermark: string;
        correlated_at: string;
        correlating: boolean | null;
      }>(SUBSCRIBE_SQL, [JSON.stringify(entries), correlated_at ?? null, lease]);
      const r = rows[0]!;
      return {
        subscribed: r.subscribed,
        watermark: Number(r.watermark),
        correlated_at: Number(r.correlated_at),
        ...(r.correlating === null ? {} : { correlating: r.correlating }),
      };
    } catch (error) {
      throw new StoreError("subscribe", { cause: error });
    }
  }

  async ack(leases: Lease[]): Promise<Lease[]> {
    if (!leases.length) return [];
    try {
      const { rows } = await this.run<LeaseRow>(ACK_SQL, [JSON.stringify(leases.map(to_ack_entry))]);
      return rows.map(to_lease);
    } catch (error) {
      throw new StoreError("ack", { cause: error });
    }
  }

  async block(leases: BlockedLease[]): Promise<BlockedLease[]> {
    if (!leases.length) return [];
    const entries = leases.map((l) => ({ stream: l.stream, by: l.by, error: l.error, lagging: l.lagging }));
    try {
      const { rows } = await this.run<LeaseRow>("SELECT * FROM act.block($1::jsonb)", [JSON.stringify(entries)]);
      return rows.map(to_blocked_lease);
    } catch (error) {
      throw new StoreError("block", { cause: error });
    }
  }

  async defer(input: string[] | StreamFilter, deferred_at: number): Promise<number> {
    if (Array.isArray(input) && !input.length) return 0;
    const { rows } = await this.run<{ n: number }>(
      "SELECT act.defer($1::jsonb, to_timestamp($2::double precision / 1000)) AS n",
      [JSON.stringify(to_selector(input)), deferred_at]
    );
    return rows[0]!.n;
  }

  async reset(input: string[] | StreamFilter): Promise<number> {
    return this.select_count("SELECT act.reset($1::jsonb) AS n", input);
  }

  async unblock(input: string[] | StreamFilter): Promise<number> {
    return this.select_count("SELECT act.unblock($1::jsonb) AS n", input);
  }

  async prioritize(filter: StreamFilter, priority: number): Promise<number> {
    const { rows } = await this.run<{ n: number }>("SELECT act.prioritize($1::jsonb, $2) AS n", [
      JSON.stringify(to_selector(filter)),
      priority,
    ]);
    return rows[0]!.n;
  }

  private async select_count(sql: string, input: string[] | StreamFilter): Promise<number> {
    if (Array.isArray(input) && !input.length) return 0;
    const { rows } = await this.run<{ n: number }>(sql, [JSON.stringify(to_selector(input))]);
    return rows[0]!.n;
  }

  async truncate(
    targets: Array<{ stream: string; snapshot?: Schema; meta?: EventMeta; before?: Date; max_id?: number }>
  ): Promise<TruncateResult> {
    const result: TruncateResult = new Map();
    if (!targets.length) return result;
    // Act lets `before` win over `snapshot`/`meta`; pg_act refuses both in one target.
    const entries = targets.map((t) =>
      t.before !== undefined
        ? { stream: t.stream, before: t.before.toISOString(), ...(t.max_id === undefined ? {} : { max_id: t.max_id }) }
        : {
            stream: t.stream,
            ...(t.snapshot === undefined ? {} : { snapshot: t.snapshot }),
            ...(t.meta === undefined ? {} : { meta: t.meta }),
          }
    );
    const { rows } = await this.run<{
      stream: string;
      deleted: string;
      id: string;
      version: number;
      name: string;
      before: Date | null;
      seeded: Date;
      data: unknown;
      meta: unknown;
      created: Date | null;
    }>(TRUNCATE_SQL, [JSON.stringify(entries)]);
    const by_stream = new Map(targets.map((t) => [t.stream, t]));
    for (const row of rows) {
      const target = by_stream.get(row.stream);
      const windowed = row.before !== null;
      const committed = to_committed({
        id: row.id,
        stream: row.stream,
        version: row.version,
        name: row.name,
        data: windowed ? row.data : (target?.snapshot ?? {}),
        meta: windowed ? row.meta : (target?.meta ?? { correlation: "", causation: {} }),
        pii: null,
        created: windowed ? row.created! : row.seeded,
      });
      result.set(row.stream, {
        deleted: Number(row.deleted),
        committed,
        ...(windowed ? { before: row.before! } : {}),
      });
    }
    return result;
  }

  async query_streams(callback: (position: StreamPosition) => void, query?: QueryStreams): Promise<QueryStreamsResult> {
    const q = query ?? {};
    const limit = q.limit ?? 100;
    const filter: Record<string, unknown> = to_selector(q) as Record<string, unknown>;
    if (q.source_matches !== undefined && q.source_matches.length) filter.source_matches = [...q.source_matches];
    const { rows } = await this.run<{ max_event_id: string; positions: SubscriptionRow[] }>(QUERY_STREAMS_SQL, [
      JSON.stringify(filter),
      q.after ?? null,
      // Act's limit 0 is "none"; pg_act's max_streams 0 is "no limit".
      limit <= 0 ? 1 : limit,
    ]);
    const positions = limit <= 0 ? [] : rows[0]!.positions;
    for (const row of positions) callback(to_position(row));
    return { maxEventId: Number(rows[0]!.max_event_id), count: positions.length };
  }

  async query_stats<E extends Schemas>(
    input: string[] | Pick<StreamFilter, "stream" | "stream_exact">,
    options?: QueryStatsOptions<E>
  ): Promise<Map<string, StreamStats<E>>> {
    const out = new Map<string, StreamStats<E>>();
    if (Array.isArray(input) && !input.length) return out;
    if (options?.limit !== undefined && options.limit <= 0) return out;
    const streams = Array.isArray(input)
      ? [...input]
      : {
          ...(input.stream === undefined ? {} : { stream: input.stream }),
          ...(input.stream_exact === undefined ? {} : { stream_exact: input.stream_exact }),
        };
    const o: Record<string, unknown> = {};
    if (options?.tail) o.tail = true;
    if (options?.count) o.count = true;
    if (options?.names) o.names = true;
    if (options?.exclude?.length) o.exclude = to_store_names(options.exclude.map(String));
    if (options?.before !== undefined) o.before = options.before;
    if (options?.after !== undefined) o.after = options.after;
    if (options?.limit !== undefined) o.limit = options.limit;
    const { rows } = await this.run<{
      stream: string;
      head: EventRow;
      tail: EventRow | null;
      count: string | null;
      names: Record<string, number> | null;
    }>("SELECT * FROM act.query_stats($1::jsonb, $2::jsonb)", [JSON.stringify(streams), JSON.stringify(o)]);
    for (const row of rows) {
      out.set(row.stream, {
        head: to_committed<E>(row.head, false),
        ...(options?.tail && row.tail ? { tail: to_committed<E>(row.tail, false) } : {}),
        ...(options?.count ? { count: Number(row.count ?? 0) } : {}),
        ...(options?.names ? { names: to_name_counts(row.names ?? {}) } : {}),
      } as StreamStats<E>);
    }
    return out;
  }

  async forget_pii(stream: string): Promise<number> {
    const { rows } = await this.run<{ n: string }>("SELECT act.forget_pii($1) AS n", [stream]);
    return Number(rows[0]!.n);
  }

  /**
   * Wipes the store and commits the driver's events afresh, in one
   * transaction (all or nothing): the extension is dropped and created again
   * (the role needs to own it), then each event is one `act.commit`. Ids run
   * 1..N, versions continue each stream from 0, and the original `created` is
   * kept in `meta.restored_created`, which reads give back as `created`.
   */
  async restore(
    driver: (callback: (event: Committed<Schemas, keyof Schemas>) => Promise<number>) => Promise<void>
  ): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("DROP EXTENSION IF EXISTS pg_act CASCADE");
      await client.query("CREATE EXTENSION pg_act");
      await driver(async (event) => {
        const meta = { ...(event.meta as object), [RESTORED_CREATED]: event.created.toISOString() };
        const pii = (event as { pii?: unknown }).pii;
        const message = {
          name: to_store_name(String(event.name)),
          data: event.data ?? {},
          ...(pii === undefined || pii === null ? {} : { pii }),
        };
        const { rows } = await client.query<{ id: string }>("SELECT id FROM act.commit($1, $2::jsonb, $3::jsonb)", [
          event.stream,
          JSON.stringify([message]),
          JSON.stringify(meta),
        ]);
        return Number(rows[0]!.id);
      });
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Act's wake-up. With `notify: true`, other processes' commits arrive by
   * LISTEN. Always, a read that continued from an id and stopped at
   * `act.horizon()` while later events were already there (a commit still in
   * flight below them, concurrent mode) is followed by a wait for the
   * horizon; when it passes, the events it held back are announced. Act
   * disarms its correlate after a pass that read nothing new, so without
   * this wake-up those events would wait for the next commit.
   */
  async notify(handler: (notification: StoreNotification) => void): Promise<NotifyDisposer> {
    this.handlers.add(handler);
    if (this.listens && !this.listener) await this.listen();
    return async () => {
      this.handlers.delete(handler);
      if (this.handlers.size || !this.listener) return;
      const client = this.listener;
      this.listener = undefined;
      await client.query("UNLISTEN act_commit").catch(() => undefined);
      client.release(true);
    };
  }

  private announce(notification: StoreNotification): void {
    for (const handler of this.handlers) {
      try {
        handler(notification);
      } catch {
        // A hint only: a failing handler never reaches the connection.
      }
    }
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    this.listener = client;
    client.on("error", () => undefined);
    client.on("notification", (message) => {
      if (message.channel !== "act_commit" || !message.payload) return;
      if (this.own_pids.has(message.processId)) return;
      const notification = to_notification(message.payload);
      if (notification) this.announce(notification);
    });
    await client.query("LISTEN act_commit");
  }

  /**
   * See notify(): `read` is the last id a read that reached its end could
   * have returned. Events above it were in flight, or landed after the read:
   * announced once the horizon passes them. One watcher at a time, in
   * one-second waits so that dispose() never waits long.
   */
  private async watch_horizon(read: number): Promise<void> {
    if (this.watching || this.disposed) return;
    this.watching = true;
    try {
      const { rows } = await this.run<{ m: string }>("SELECT act.max_event_id() AS m");
      const from = read;
      if (Number(rows[0]!.m) <= from) return;
      let to = from;
      for (let i = 0; i < HORIZON_WAITS && to <= from && !this.disposed; i++) {
        const { rows: w } = await this.run<{ h: string }>("SELECT act.wait($1, 1000) AS h", [from]);
        to = Number(w[0]!.h);
      }
      if (to <= from || this.disposed) return;
      const { rows: held } = await this.run<{ id: string; stream: string; name: string }>(
        "SELECT id, stream, name FROM act.query(after => $1, before => $2)",
        [from, to + 1]
      );
      const by_stream = new Map<string, { id: number; name: string }[]>();
      for (const e of held) {
        const events = by_stream.get(e.stream) ?? [];
        events.push({ id: Number(e.id), name: e.name === GUARD_EVENT ? "__tombstone__" : e.name });
        by_stream.set(e.stream, events);
      }
      for (const [stream, events] of by_stream) this.announce({ stream, events });
    } catch {
      // A wake-up only: Act's own polling still drains.
    } finally {
      this.watching = false;
    }
  }
}

/** pg_act's NOTIFY payload as Act's notification; the shorter forms carry no names. */
function to_notification(payload: string): StoreNotification | undefined {
  let parsed: { stream?: unknown; events?: unknown; last?: unknown };
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const stream = typeof parsed.stream === "string" ? parsed.stream : "";
  if (Array.isArray(parsed.events)) {
    const events = parsed.events
      .filter((e): e is { id: number; name: string } => typeof e?.id === "number" && typeof e?.name === "string")
      .map((e) => ({ id: e.id, name: e.name === GUARD_EVENT ? "__tombstone__" : e.name }));
    return events.length ? { stream, events } : undefined;
  }
  if (typeof parsed.last === "number") return { stream, events: [{ id: parsed.last, name: "" }] };
  return undefined;
}

function commit_error(
  error: PgError,
  stream: string,
  msgs: Message<Schemas, keyof Schemas>[],
  expectedVersion: number | undefined
): Error {
  if (error.code === "40001") {
    let actual = -1;
    let expected = expectedVersion ?? -1;
    try {
      const detail = JSON.parse(error.detail ?? "{}");
      if (typeof detail.actual === "number") actual = detail.actual;
      if (typeof detail.expected === "number") expected = detail.expected;
    } catch {
      // the message names the versions too; the detail is the reliable form
    }
    return new ConcurrencyError(stream, actual, msgs, expected);
  }
  if (error.code === "55000") return new StreamClosedError(stream);
  if (error.code === "22P05" || error.code === "22021")
    return new ValidationError(stream, msgs.map((m) => m.name), error.message);
  if (error.code?.startsWith("22")) return new ValidationError(stream, msgs.map((m) => m.name), error.message);
  return new StoreError("commit", { cause: error });
}
