// Where a command's store is: the run's --home and --db resolved the one way every command resolves them (--db, else
// SKIPPER_DATABASE_URL, else SQLite in the home: --home, SKIPPER_HOME, the XDG data dir), and opened as the command
// needs it (read-only, existing, or made). Light: the store commands, web and fleet share it without the play wiring.
import { openExistingHomeStore, openHomeStore, openHomeStoreForReading, type StoreAccess } from './home.js';
import { resolveConfig, type ResolvedConfig } from './config.js';
import type { Store } from '../store/index.js';
import { env } from './config-secrets.js';
import type { StorePlace } from '../shared/index.js';

export function configAt(place: StorePlace): ResolvedConfig {
  return resolveConfig({ ...(place.home ? { home: place.home } : {}), ...(place.db ? { db: place.db } : {}) }, env());
}

export async function openStoreAt(place: StorePlace, access: StoreAccess = {}): Promise<Store> {
  const config = configAt(place);
  if (access.readonly) return await openHomeStoreForReading(config.home, config.database);
  const where = config.database ? { database: config.database } : {};
  return access.existing ? await openExistingHomeStore(config.home, where) : await openHomeStore(config.home, where);
}
