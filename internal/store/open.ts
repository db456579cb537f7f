// Opening the database file safely: private file modes, refusing corrupt, foreign or newer databases without ever
// writing to them, then pragmas and migrations. Everything that can go wrong at open becomes a FatalError that names
// the file and says what to do.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FatalError, type Logger } from '../shared/index.js';
import { rescueCredentials, rescuedCredentialsPath, restoreRescuedCredentials } from './credentials.js';
import { applicationId, knownTables, migrate, migrations as allMigrations, type Migration } from './migrations.js';
import { isPostgresUrl } from './pg/location.js';

/**
 * Connection settings, also used by the crash test's child process. WAL + synchronous=NORMAL survives a killed process
 * (commits are in the WAL before the write returns); only a power loss may drop the last transactions.
 */
export const connectionPragmas: readonly string[] = ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON'];

export interface OpenDatabaseOptions {
  path: string;
  logger?: Logger;
  readonly?: boolean;
  /** Tests only: a shorter or longer migration list. */
  migrations?: readonly Migration[];
  /** Run PRAGMA quick_check on open (default: when the file is under 256 MB). */
  quickCheck?: boolean;
}

const quickCheckLimitBytes = 256 * 1024 * 1024;

export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  // A postgres:// URL is the PostgreSQL store's (internal/store/pg, opened by openStore), never a SQLite file.
  if (isPostgresUrl(options.path))
    throw new FatalError('store_open', 'a postgres:// URL opens the PostgreSQL store (openStore), not a SQLite file');
  return openSqliteFile(options);
}

/** The SQLite file (or :memory:): opened, checked, and for writing migrated, made private and its rescued
 * credentials taken back. */
function openSqliteFile(options: OpenDatabaseOptions): Database.Database {
  const file = options.path;
  const logger = options.logger;
  const migrations = options.migrations ?? allMigrations;
  const inMemory = file === ':memory:';
  if (!inMemory && !options.readonly) prepareFile(file);

  let db: Database.Database;
  try {
    db = options.readonly && !inMemory ? openReadOnly(file, logger) : new Database(file, { fileMustExist: !inMemory });
  } catch (error) {
    throw keepingCredentials(file, openError(file, error));
  }
  try {
    inspect(db, { file, migrations, readonly: options.readonly ?? false, quickCheck: options.quickCheck });
    if (options.readonly) db.pragma('foreign_keys = ON');
    else setUpForWriting(db, { file, migrations, logger, inMemory });
  } catch (error) {
    db.close();
    throw keepingCredentials(file, error instanceof FatalError ? error : openError(file, error));
  }
  logger?.debug({ path: file }, 'store opened');
  return db;
}

/** A connection that writes: its pragmas, the migrations it lacks, the file's mode, rescued credentials back in. */
function setUpForWriting(
  db: Database.Database,
  options: { file: string; migrations: readonly Migration[]; logger: Logger | undefined; inMemory: boolean },
): void {
  const { file, migrations, logger } = options;
  for (const pragma of connectionPragmas) db.pragma(pragma);
  const applied = migrate(db, migrations);
  if (applied.length > 0) logger?.info({ path: file, applied }, 'store migrated');
  if (!options.inMemory) privatise(file);
  if (migrations === allMigrations) {
    const restored = restoreRescuedCredentials(db, file);
    if (restored > 0) logger?.info({ path: file, restored }, 'store: rescued game passwords taken back in');
  }
}

/**
 * A read-only connection writes nothing. A WAL database needs its -shm index, which SQLite cannot create on a read-only
 * file system or folder: then a snapshot of the file is read from memory instead, its header marked as a
 * rollback-journal database (bytes 18-19) so SQLite needs no index. (With nobody able to write there, nobody is
 * writing; only a -wal left by a crash would be missed, and the log says so.)
 */
function openReadOnly(file: string, logger: Logger | undefined): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('schema_version', { simple: true }); // the first read opens the WAL index
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_CANTOPEN') throw error;
  }
  const image = fs.readFileSync(file);
  if (image.length >= 20 && image[18] === 2 && image[19] === 2) image.fill(1, 18, 20);
  const wal = `${file}-wal`;
  if (fs.existsSync(wal) && fs.statSync(wal).size > 0) {
    logger?.warn(
      { path: wal },
      'read-only store: its write-ahead log cannot be read here; the latest writes may be missing',
    );
  }
  return new Database(image, { readonly: true });
}

/** Creates the parent directory (0700) and an empty file (0600) so SQLite never creates it with a wider mode. */
function prepareFile(file: string): void {
  const directory = path.dirname(file);
  try {
    if (!fs.existsSync(directory)) fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new FatalError(
      'store_open',
      `cannot create the database ${file}: ${(error as Error).message}. Check the directory's permissions or set SKIPPER_HOME.`,
      { cause: error },
    );
  }
}

/** SQLite gives -wal/-shm the main file's mode; chmod anyway in case the file pre-existed with a wider one. */
function privatise(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      fs.chmodSync(file + suffix, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

interface InspectOptions {
  file: string;
  migrations: readonly Migration[];
  readonly: boolean;
  quickCheck: boolean | undefined;
}

/** Read-only checks, before anything is written: is this an empty file, one of ours, or something to leave alone? */
function inspect(db: Database.Database, options: InspectOptions): void {
  const { file } = options;
  const known = options.migrations.length;
  const version = Number(db.pragma('user_version', { simple: true }));
  const appId = Number(db.pragma('application_id', { simple: true }));
  const tables = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as Array<{
      name: string;
    }>
  ).map((row) => row.name);

  const isEmpty = version === 0 && appId === 0 && tables.length === 0;
  if (!isEmpty && appId !== applicationId) {
    const what = tables.length > 0 ? `tables ${tables.slice(0, 5).join(', ')}` : 'no Skipper tables';
    throw new FatalError(
      'store_foreign',
      `${file} is a SQLite database that Skipper did not make (${what}). It was left untouched. ` +
        'Point SKIPPER_HOME somewhere else, or move that file away to let Skipper create its own.',
    );
  }
  if (version > known) {
    throw new FatalError(
      'store_newer',
      `${file} was made by a newer Skipper (schema version ${version}; this one knows up to ${known}). ` +
        'It was left untouched. Upgrade Skipper, or use a different SKIPPER_HOME.',
    );
  }
  if (!isEmpty) {
    const missing = knownTables.filter((table) => !tables.includes(table));
    if (version === known && options.migrations === allMigrations && missing.length > 0) {
      throw new FatalError(
        'store_corrupt',
        `${file} is missing tables ${missing.join(', ')}; it was left untouched. Move it away and restore a backup.`,
      );
    }
  }
  if (options.readonly && version < known) {
    throw new FatalError(
      'store_old',
      `${file} has schema version ${version}; this Skipper needs ${known}. This command only reads: ` +
        'run `skipper` (any command that plays) once with write access to upgrade it.',
    );
  }
  const size = file === ':memory:' ? 0 : fs.statSync(file).size;
  const wantCheck = options.quickCheck ?? size < quickCheckLimitBytes;
  if (wantCheck && !isEmpty) {
    const result = (db.pragma('quick_check') as Array<{ quick_check: string }>).map((row) => row.quick_check);
    if (result.length !== 1 || result[0] !== 'ok') {
      throw new FatalError(
        'store_corrupt',
        `${file} is damaged (quick_check: ${result.slice(0, 3).join('; ')}). It was left untouched. ` +
          'Move it away (or try `sqlite3 FILE .recover`) and Skipper will start a fresh one.',
      );
    }
  }
}

function openError(file: string, error: unknown): FatalError {
  const code = (error as { code?: string }).code ?? '';
  const message = (error as Error).message ?? String(error);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT')) {
    return new FatalError(
      'store_corrupt',
      `${file} is not a readable Skipper database (${message}). It was left untouched. ` +
        'Move it away (or restore a backup) and Skipper will create a fresh one.',
      { cause: error },
    );
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new FatalError('store_busy', `${file} is locked by another process (${message}). Try again.`, {
      cause: error,
    });
  }
  return new FatalError('store_open', `cannot open the database ${file}: ${message}`, { cause: error });
}

/**
 * A store Skipper advises moving away still holds the game passwords its captains log in with: they are read out
 * beside it first (the fresh store takes them back), or the message says how to keep them by hand.
 */
function keepingCredentials(file: string, error: FatalError): FatalError {
  if (error.code !== 'store_corrupt' || file === ':memory:') return error;
  const saved = rescueCredentials(file);
  const note =
    saved === undefined
      ? ' Its game passwords could not be read out: before moving it, try ' +
        `\`sqlite3 ${file} "SELECT game_url, username, password FROM credentials"\`; a captain whose password is lost ` +
        'logs in again with --username NAME and SKIPPER_GAME_PASSWORD.'
      : saved === 0
        ? ''
        : ` Its game passwords (${saved} account${saved === 1 ? '' : 's'}) were saved to ` +
          `${rescuedCredentialsPath(file)}; the fresh database takes them back in, so its captains log in as before.`;
  return note === '' ? error : new FatalError('store_corrupt', `${error.message}${note}`, { cause: error.cause });
}
