export { MARKED_BY_CORRELATE, PgActStore, type PgActStoreOptions } from "./pg-act-store.js";
export { GUARD_EVENT, RESTORED_CREATED } from "./mapping.js";
