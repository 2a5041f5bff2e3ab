// How Act's values and pg_act's rows translate into each other. Kept apart
// from the store so every rule of adapters/act/README.md ("Mapping") has one
// place in the code.
import { dateReviver, SNAP_EVENT, TOMBSTONE_EVENT } from "@rotorsoft/act";
import type {
  BlockedLease,
  Committed,
  EventMeta,
  Lease,
  Schemas,
  StreamFilter,
  StreamPosition,
} from "@rotorsoft/act";

/**
 * pg_act refuses `__tombstone__` in `act.commit`: only `act.truncate` writes
 * one, and a stream whose last event is a tombstone refuses commits. Act's
 * close-the-books commits a tombstone as a *guard* before it archives and
 * truncates, so the adapter stores the guard under this name and reads it
 * back as `__tombstone__`; `act.truncate` then replaces the stream as Act
 * asks, with a real tombstone or a snapshot.
 */
export const GUARD_EVENT = "__close_guard__";

/**
 * `act.commit` stamps `created` with the transaction's start time. A restore
 * keeps the original time in `meta` under this key (hashed with the event),
 * and reads give it back as `created` with the key removed.
 */
export const RESTORED_CREATED = "restored_created";

export type EventRow = {
  id: string | number;
  stream: string;
  version: number;
  name: string;
  data: unknown;
  meta: unknown;
  pii: unknown;
  created: Date | string;
};

const revive = (value: unknown): unknown =>
  value === null || value === undefined ? value : JSON.parse(JSON.stringify(value), dateReviver);

export const to_store_name = (name: string): string => (name === TOMBSTONE_EVENT ? GUARD_EVENT : name);
export const from_store_name = (name: string): string => (name === GUARD_EVENT ? TOMBSTONE_EVENT : name);

/** Names as a filter: asking for tombstones also finds guards. */
export const to_store_names = (names: ReadonlyArray<string>): string[] =>
  names.includes(TOMBSTONE_EVENT) ? [...names, GUARD_EVENT] : [...names];

/** A row of `act.events` (or a JSON event object of pg_act) as Act's `Committed`. */
export function to_committed<E extends Schemas>(row: EventRow, with_pii = true): Committed<E, keyof E> {
  const meta = (revive(row.meta) ?? {}) as Record<string, unknown>;
  let created = row.created instanceof Date ? row.created : new Date(row.created);
  const restored = meta[RESTORED_CREATED];
  if (restored !== undefined) {
    created = restored instanceof Date ? restored : new Date(String(restored));
    delete meta[RESTORED_CREATED];
  }
  const event: Record<string, unknown> = {
    id: Number(row.id),
    stream: row.stream,
    version: Number(row.version),
    created,
    name: from_store_name(row.name),
    data: revive(row.data) ?? {},
    meta: meta as EventMeta,
  };
  if (with_pii && row.pii !== null && row.pii !== undefined) event.pii = revive(row.pii);
  return event as Committed<E, keyof E>;
}

export type LeaseRow = {
  stream: string;
  source: string | null;
  at: string | number;
  by: string;
  retry: number;
  lagging: boolean;
  lane: string | null;
  error?: string | null;
};

export function to_lease(row: LeaseRow): Lease {
  return {
    stream: row.stream,
    ...(row.source === null ? {} : { source: row.source }),
    at: Number(row.at),
    by: row.by,
    retry: row.retry,
    lagging: row.lagging,
    ...(row.lane === null ? {} : { lane: row.lane }),
  };
}

export const to_blocked_lease = (row: LeaseRow): BlockedLease => ({ ...to_lease(row), error: row.error ?? "" });

/** A lease as `act.ack` reads it: only the keys it knows. */
export function to_ack_entry(lease: Lease): Record<string, unknown> {
  return {
    stream: lease.stream,
    by: lease.by,
    at: lease.at,
    lagging: lease.lagging,
    ...(lease.due === undefined ? {} : { due: Math.trunc(lease.due), retry: lease.retry }),
  };
}

/** Act's `string[] | StreamFilter` as a pg_act selector (the same keys, undefined ones left out). */
export function to_selector(input: ReadonlyArray<string> | StreamFilter): unknown {
  if (Array.isArray(input)) return [...new Set(input)];
  const filter = input as StreamFilter;
  const selector: Record<string, unknown> = {};
  for (const key of ["stream", "stream_exact", "source", "source_exact", "blocked", "lane"] as const)
    if (filter[key] !== undefined) selector[key] = filter[key];
  return selector;
}

export type SubscriptionRow = {
  stream: string;
  source: string | null;
  at: string | number;
  retry: number;
  blocked: boolean;
  error: string | null;
  leased_by: string | null;
  leased_until: string | null;
  priority: number;
  lane: string;
  deferred_at: string | null;
  correlated_at: string | number | null;
};

/** A row of `act.subscriptions` (as `to_jsonb` renders it) as Act's `StreamPosition`. */
export function to_position(row: SubscriptionRow): StreamPosition {
  return {
    stream: row.stream,
    ...(row.source === null ? {} : { source: row.source }),
    at: Number(row.at),
    retry: row.retry,
    blocked: row.blocked,
    error: row.error ?? "",
    priority: row.priority,
    ...(row.leased_by === null ? {} : { leased_by: row.leased_by }),
    ...(row.leased_until === null ? {} : { leased_until: new Date(row.leased_until) }),
    lane: row.lane,
    ...(row.deferred_at === null ? {} : { deferred_at: new Date(row.deferred_at).getTime() }),
    ...(row.correlated_at === null ? {} : { correlated_at: Number(row.correlated_at) }),
  };
}

/** Name counts of `act.query_stats`, guards counted as tombstones. */
export function to_name_counts(names: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, count] of Object.entries(names)) {
    const mapped = from_store_name(name);
    out[mapped] = (out[mapped] ?? 0) + Number(count);
  }
  return out;
}

export { SNAP_EVENT, TOMBSTONE_EVENT };
