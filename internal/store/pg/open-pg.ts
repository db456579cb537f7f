// Opening a PostgreSQL store: the URL checked and split (a `schema` parameter is Skipper's, not the driver's), the
// connection made through the bridge, and the schema brought up to date under an advisory lock, so workers starting
// together migrate once. A server that is down or a URL that is wrong is a FatalError that says what to check.
import { FatalError, type Logger } from '../../shared/index.js';
import { SkipperError } from '../../shared/index.js';
import { SyncBridge } from './bridge.js';
import { PgDatabase } from './database.js';
import { parsePgUrl } from './location.js';
import { pgMigrations, type PgMigration } from './schema.js';

/** Held while migrating: one migrator at a time per database. */
const migrationLockKey = 0x534b5053;

export { isPostgresUrl, parsePgUrl, redactPgUrl, type PgLocation } from './location.js';

export interface OpenPgOptions {
  url: string;
  logger?: Logger;
  /** Tests: a shorter list, or a newer one. */
  migrations?: readonly PgMigration[];
  timeoutMs?: number;
}

export function openPgDatabase(options: OpenPgOptions): PgDatabase {
  const location = parsePgUrl(options.url);
  const bridge = new SyncBridge({
    url: location.url,
    schema: location.schema,
    label: location.label,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const db = new PgDatabase(bridge);
  try {
    const applied = migratePg(db, { migrations: options.migrations ?? pgMigrations, label: location.label });
    if (applied.length > 0) options.logger?.info({ database: location.label, applied }, 'store migrated');
  } catch (error) {
    db.close();
    if (error instanceof SkipperError) throw error;
    throw new FatalError('store_open', `cannot prepare ${location.label}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return db;
}

/** Brings the schema up to the last of `migrations` in one transaction; returns the versions applied. */
export function migratePg(db: PgDatabase, options: { migrations: readonly PgMigration[]; label: string }): number[] {
  const known = options.migrations.length;
  const applied: number[] = [];
  db.transaction(() => {
    db.exec(`SELECT pg_advisory_xact_lock(${migrationLockKey})`);
    db.exec('CREATE TABLE IF NOT EXISTS skipper_schema (version BIGINT NOT NULL, application TEXT NOT NULL)');
    const row = db.prepare('SELECT version FROM skipper_schema').get() as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > known) {
      throw new FatalError(
        'store_newer',
        `${options.label} was made by a newer Skipper (schema version ${current}; this one knows up to ${known}). ` +
          'It was left untouched. Upgrade Skipper, or point --db elsewhere.',
      );
    }
    for (const migration of options.migrations.slice(current)) {
      db.exec(migration.sql);
      applied.push(migration.version);
    }
    if (row === undefined) db.prepare(`INSERT INTO skipper_schema VALUES (?, 'skipper')`).run(known);
    else if (applied.length > 0) db.prepare('UPDATE skipper_schema SET version = ?').run(known);
  })();
  return applied;
}
