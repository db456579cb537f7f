// PostgreSQL's migrations: the one list (migrations.ts), each step's `postgres` SQL, the version kept in
// `skipper_schema`. The steps a database lacks run in one transaction, each followed by its version bump
// (PostgreSQL's DDL is transactional: a crash mid-way leaves the version it had), under an advisory transaction lock
// on the schema's name, so workers that start together migrate once — the others wait, then find nothing to do. A
// database newer than this build is refused and left untouched (the transaction rolls back). Nothing is created that
// exists already, so a user who may only read and write rows opens a migrated store. Stores made before the list
// was one numbered their steps differently (their 5: the advisory-lock captain leases, their 6: recipes): a
// `captain_leases` table marks one, read as version 4, and steps 5 and 6 — written to run again harmlessly — bring
// it to today's numbering.
import type pg from 'pg';
import { FatalError } from '../../shared/index.js';
import { migrations as allMigrations, type Migration } from '../migrations.js';

/** First key of the migration lock ('SKPS'); the second is the schema's hash. */
const migrationLockKey = 0x534b5053;

export interface MigratePgOptions {
  /** The schema Skipper's tables live in (created when missing); undefined: the server's search_path. */
  schema: string | undefined;
  /** The database without its password, for messages. */
  label: string;
  migrations?: readonly Migration[];
}

async function schemaExists(client: pg.ClientBase, schema: string): Promise<boolean> {
  return ((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount ?? 0) > 0;
}

/** Whether `table` is on the search path (the store's schema). */
async function tableExists(client: pg.ClientBase, table: string): Promise<boolean> {
  const found = await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table]);
  return Boolean(found.rows[0]?.found);
}

/** The version a database of Skipper's is at: skipper_schema's, or 4 for a store of the old numbering. */
async function currentVersion(client: pg.ClientBase): Promise<number> {
  const version = await client.query<{ version: number }>('SELECT version FROM skipper_schema');
  const found = Number(version.rows[0]?.version ?? 0);
  return (await tableExists(client, 'captain_leases')) ? Math.min(found, 4) : found;
}

function newerError(label: string, version: number, known: number): FatalError {
  return new FatalError(
    'store_newer',
    `${label} was made by a newer Skipper (schema version ${version}; this one knows up to ${known}). ` +
      'It was left untouched. Upgrade Skipper, or point --db elsewhere.',
  );
}

/** Brings the schema up to the last of the list; returns the versions applied. `client` is the caller's own. */
export async function migratePg(client: pg.ClientBase, options: MigratePgOptions): Promise<number[]> {
  const list = options.migrations ?? allMigrations;
  const applied: number[] = [];
  await client.query('BEGIN');
  try {
    // A migration may wait on another process's lock and take its time: no statement deadline here.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [migrationLockKey, options.schema ?? '']);
    if (options.schema !== undefined && !(await schemaExists(client, options.schema))) {
      await client.query(`CREATE SCHEMA ${options.schema}`);
    }
    if (!(await tableExists(client, 'skipper_schema'))) {
      await client.query('CREATE TABLE skipper_schema (version BIGINT NOT NULL, application TEXT NOT NULL)');
    }
    const current = await currentVersion(client);
    if (current > list.length) throw newerError(options.label, current, list.length);
    for (const migration of list.slice(current)) {
      await client.query(migration.postgres);
      await client.query('DELETE FROM skipper_schema');
      await client.query(`INSERT INTO skipper_schema (version, application) VALUES ($1, 'skipper')`, [
        migration.version,
      ]);
      applied.push(migration.version);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return applied;
}

/** A read-only store migrates nothing: it checks the version it finds is this build's. */
export async function checkPgVersion(client: pg.ClientBase, options: MigratePgOptions): Promise<void> {
  const known = (options.migrations ?? allMigrations).length;
  const current = (await tableExists(client, 'skipper_schema')) ? await currentVersion(client) : 0;
  if (current > known) throw newerError(options.label, current, known);
  if (current < known) {
    throw new FatalError(
      'store_old',
      `${options.label} has schema version ${current}; this Skipper needs ${known}. This command only reads: ` +
        'run `skipper` (any command that plays) once with write access to upgrade it.',
    );
  }
}
