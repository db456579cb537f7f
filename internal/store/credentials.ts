// Game passwords per (game URL, username), behind the shared CredentialStore interface. The file is 0600; passwords
// are stored as given because Skipper must send them back to the game to log in. A store found damaged has its
// passwords read out beside it before Skipper advises moving it away, and the fresh store takes them back in: the
// game knows those accounts, and without their passwords the captain could only register someone new (issue 30).
import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { SqliteCredentials } from './types.js';

interface CredentialRow {
  username: string;
  password: string;
}

export class SqliteCredentialStore implements SqliteCredentials {
  private readonly selectOne: Database.Statement;
  private readonly selectLatest: Database.Statement;
  private readonly selectMaxUpdated: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly deleteOne: Database.Statement;
  private readonly selectPasswords: Database.Statement;
  /** Prepared once: `db.pragma()` compiles its statement on every call, and this is asked before every game call. */
  private readonly dataVersion: Database.Statement;
  /**
   * The password list, read again only when this handle wrote or another connection committed since (SQLite's
   * data_version): the secret guard asks for it on every game call, 50 captains at a time in a fleet.
   */
  private passwords: { list: readonly string[]; version: number; writes: number } | undefined;
  private writes = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.selectOne = db.prepare('SELECT username, password FROM credentials WHERE game_url = ? AND username = ?');
    this.selectLatest = db.prepare(
      'SELECT username, password FROM credentials WHERE game_url = ? ORDER BY updated_at DESC, rowid DESC LIMIT 1',
    );
    this.selectMaxUpdated = db.prepare('SELECT MAX(updated_at) AS latest FROM credentials WHERE game_url = ?');
    this.upsert = db.prepare(
      `INSERT INTO credentials (game_url, username, password, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (game_url, username) DO UPDATE SET password = excluded.password, updated_at = excluded.updated_at`,
    );
    this.deleteOne = db.prepare('DELETE FROM credentials WHERE game_url = ? AND username = ?');
    this.selectPasswords = db.prepare('SELECT DISTINCT password FROM credentials');
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  get(gameUrl: string, username: string): { username: string; password: string } | undefined {
    return copy(this.selectOne.get(gameUrl, username) as CredentialRow | undefined);
  }

  latest(gameUrl: string): { username: string; password: string } | undefined {
    return copy(this.selectLatest.get(gameUrl) as CredentialRow | undefined);
  }

  put(gameUrl: string, username: string, password: string): void {
    // Strictly increasing per game so "latest" is the last put even within one millisecond.
    const previous = (this.selectMaxUpdated.get(gameUrl) as { latest: number | null }).latest ?? 0;
    this.upsert.run(gameUrl, username, password, Math.max(this.now(), previous + 1));
    this.writes += 1;
  }

  remove(gameUrl: string, username: string): boolean {
    this.writes += 1;
    return this.deleteOne.run(gameUrl, username).changes > 0;
  }

  allPasswords(): string[] {
    return [...this.passwordList()];
  }

  passwordList(): readonly string[] {
    const version = Number(this.dataVersion.get());
    const cached = this.passwords;
    if (cached && cached.version === version && cached.writes === this.writes) return cached.list;
    const list = Object.freeze((this.selectPasswords.all() as Array<{ password: string }>).map((row) => row.password));
    this.passwords = { list, version, writes: this.writes };
    return list;
  }
}

function copy(row: CredentialRow | undefined): { username: string; password: string } | undefined {
  return row === undefined ? undefined : { username: row.username, password: row.password };
}

/** Where the passwords of a damaged store wait for the fresh one: beside it, private to its owner. */
export function rescuedCredentialsPath(file: string): string {
  return `${file}.credentials.json`;
}

interface RescuedRow {
  game_url: string;
  username: string;
  password: string;
  updated_at: number;
}

/**
 * Reads the game passwords out of a store that will not open (damaged, or missing tables) into
 * rescuedCredentialsPath(file), without writing to the store. Returns how many accounts were saved, or undefined
 * when none could be read (then the person is told how to keep them by hand).
 */
export function rescueCredentials(file: string): number | undefined {
  if (file === ':memory:') return undefined;
  let rows: RescuedRow[];
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      rows = db.prepare('SELECT game_url, username, password, updated_at FROM credentials').all() as RescuedRow[];
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
  if (rows.length === 0) return 0;
  const target = rescuedCredentialsPath(file);
  try {
    // Accounts rescued earlier (a second damaged store) are kept beside these.
    const merged = new Map<string, RescuedRow>();
    for (const row of [...readRescued(target), ...rows]) merged.set(`${row.game_url}\n${row.username}`, row);
    fs.writeFileSync(target, `${JSON.stringify([...merged.values()], null, 2)}\n`, { mode: 0o600 });
    fs.chmodSync(target, 0o600);
  } catch {
    return undefined;
  }
  return rows.length;
}

function readRescued(target: string): RescuedRow[] {
  if (!fs.existsSync(target)) return [];
  const parsed: unknown = JSON.parse(fs.readFileSync(target, 'utf8'));
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (row): row is RescuedRow =>
      typeof row === 'object' &&
      row !== null &&
      typeof (row as RescuedRow).game_url === 'string' &&
      typeof (row as RescuedRow).username === 'string' &&
      typeof (row as RescuedRow).password === 'string',
  );
}

/**
 * Takes rescued passwords into a store that opened (the fresh one made after the damaged one was moved away): an
 * account already stored keeps its own password. The file is removed once its rows are in. Returns how many were
 * taken in.
 */
export function restoreRescuedCredentials(db: Database.Database, file: string): number {
  if (file === ':memory:') return 0;
  const target = rescuedCredentialsPath(file);
  let rows: RescuedRow[];
  try {
    rows = readRescued(target);
  } catch {
    return 0; // unreadable: left for the person, the message that made it says what it holds
  }
  const insert = db.prepare(
    'INSERT OR IGNORE INTO credentials (game_url, username, password, updated_at) VALUES (?, ?, ?, ?)',
  );
  let added = 0;
  db.transaction(() => {
    for (const row of rows) {
      added += insert.run(row.game_url, row.username, row.password, Number(row.updated_at) || Date.now()).changes;
    }
  })();
  fs.rmSync(target, { force: true });
  return added;
}
