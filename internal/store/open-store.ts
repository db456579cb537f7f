// Opening a store: a SQLite file (or ':memory:') in this process, or a PostgreSQL database by its URL. Either way the
// caller gets the asynchronous contract (contract.ts) and never needs to know which engine is behind it.
import type { Store } from './contract.js';
import { isPostgresUrl } from './pg/location.js';
import { openPgStore } from './pg/store.js';
import type { StoreOptions } from './sqlite-store.js';
import { SqliteStore } from './sqlite/store.js';

export async function openStore(options: StoreOptions): Promise<Store> {
  if (isPostgresUrl(options.path)) return openPgStore({ ...options, url: options.path });
  return new SqliteStore(options);
}
