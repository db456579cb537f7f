// Game passwords per (game URL, username), behind the shared CredentialStore interface. The file is 0600; passwords
// are stored as given because Skipper must send them back to the game to log in.
import type Database from 'better-sqlite3';
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
  private passwords: { list: string[]; version: number; writes: number } | undefined;
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
    const version = Number(this.dataVersion.get());
    const cached = this.passwords;
    if (cached && cached.version === version && cached.writes === this.writes) return [...cached.list];
    const list = (this.selectPasswords.all() as Array<{ password: string }>).map((row) => row.password);
    this.passwords = { list, version, writes: this.writes };
    return [...list];
  }
}

function copy(row: CredentialRow | undefined): { username: string; password: string } | undefined {
  return row === undefined ? undefined : { username: row.username, password: row.password };
}
