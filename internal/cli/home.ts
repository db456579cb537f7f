// The Skipper home ($SKIPPER_HOME, --home): checked before anything is made in it, created for commands that play,
// and only read by commands that read (sessions, replay, export): those open the store read-only and create nothing.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { databaseFileName, openStore, type Redactor, type Store } from '../store/index.js';
import { FatalError, UsageError, type Logger } from '../shared/index.js';

/** True when the home exists (as a folder); a file in its place is a usage error that says what to do. */
export function checkHome(home: string): boolean {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(home).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'ENOTDIR') throw notAFolder(home, 'a part of that path is a file');
    throw error;
  }
  if (!isDirectory) throw notAFolder(home, 'it is a file');
  return true;
}

function notAFolder(home: string, why: string): UsageError {
  return new UsageError(
    `cannot use ${home} as the Skipper home: it is not a folder (${why}). Point SKIPPER_HOME (or --home) at a folder, or move the file away.`,
  );
}

/** The home, made private (0700) when it is new. */
export function ensureHome(home: string): void {
  if (!checkHome(home)) mkdirSync(home, { recursive: true, mode: 0o700 });
}

/**
 * How a command opens its store. `readonly`: a read command (sessions, replay, export, memory list, report, web):
 * nothing in the home is created or changed. `existing`: a deleting command: the home must exist, none is made.
 * Neither: a command that writes (a counterfactual replay): home and database made when missing.
 */
export interface StoreAccess {
  readonly?: boolean;
  existing?: boolean;
}

/** A fleet's WAL is copied back into its database every 8,000 pages (32 MB) instead of every 1,000. */
const FLEET_WAL_PAGES = 8000;

export interface HomeStoreOptions {
  logger?: Logger;
  redact?: Redactor;
  /** A postgres:// URL (--db, SKIPPER_DATABASE_URL): the store lives there, the home keeps logs and config. */
  database?: string;
  /** A fleet's store: its records join the group commit, its WAL is longer (see StoreOptions). */
  fleet?: boolean;
}

/** The store of a command that plays or changes things: home and database created when missing, migrated. */
export async function openHomeStore(home: string, options: HomeStoreOptions = {}): Promise<Store> {
  ensureHome(home);
  return await openStore({
    path: options.database ?? join(home, databaseFileName),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
    ...(options.fleet ? { groupRecords: true, walAutocheckpointPages: FLEET_WAL_PAGES } : {}),
  });
}

/** A home that is not there, for a command that reads or deletes: nothing is created (a typo must not make one). */
export function requireHome(home: string): void {
  if (!checkHome(home)) throw new FatalError('not_found', `no Skipper home at ${home}: nothing stored there yet`);
}

/** The store of a command that deletes (sessions rm, memory rm and clear): in a home that exists, never a new one. */
export async function openExistingHomeStore(home: string, options: HomeStoreOptions = {}): Promise<Store> {
  if (options.database)
    return await openStore({ path: options.database, ...(options.logger ? { logger: options.logger } : {}) });
  requireHome(home);
  return await openHomeStore(home, options);
}

/**
 * The store of a command that only reads: opened read-only (no migration, no WAL switch, nothing written), so it
 * works on a read-only file or file system. A missing home is an error (exit 1); a home with no database yet reads
 * as an empty one, without creating anything.
 */
export async function openHomeStoreForReading(home: string, database?: string): Promise<Store> {
  // A database server is shared by every host: read it whether or not this host has a home.
  if (database) return await openStore({ path: database });
  requireHome(home);
  const file = join(home, databaseFileName);
  if (!existsSync(file)) return await openStore({ path: ':memory:' });
  return await openStore({ path: file, readonly: true });
}
