// internal/store/pg: the store on PostgreSQL (rule 21) — openPgStore, the asynchronous contract on a pg.Pool in
// PostgreSQL's own SQL — and the URL helpers every caller of a `postgres://` store uses.
export { openPgStore, type PgStoreOptions } from './store.js';
export { isPostgresUrl, parsePgUrl, redactPgUrl, type PgLocation } from './location.js';
