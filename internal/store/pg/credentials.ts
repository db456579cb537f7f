// Game passwords on PostgreSQL, per (game URL, username). The secret guard reads every stored password on each game
// call, 50 captains at a time in a fleet, and must never wait on the network for it: the list lives in memory —
// read at open, replaced at once by this store's own put and remove (in their transaction), read again by refresh()
// and every 5 s in the background for other processes' writes. The array stays the same object while its contents do.
import type { CredentialTable } from '../contract.js';
import type { PgConnection, Sql } from './connection.js';

const refreshEveryMs = 5_000;

interface CredentialRow {
  username: string;
  password: string;
}

function copy(row: CredentialRow | undefined): { username: string; password: string } | undefined {
  return row === undefined ? undefined : { username: row.username, password: row.password };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const known = new Set(a);
  return b.every((password) => known.has(password));
}

export class PgCredentials implements CredentialTable {
  private passwords: readonly string[] = Object.freeze([]);
  private timer: NodeJS.Timeout | undefined;
  /** This store's own writes so far: a refresh that began before one of them must not undo what it showed. */
  private writes = 0;

  constructor(
    private readonly db: PgConnection,
    private readonly now: () => number,
  ) {}

  /** Reads the list again every 5 s while the store is open (skipped while the database is down). */
  startRefreshing(everyMs = refreshEveryMs): void {
    this.timer = setInterval(() => {
      if (this.db.health.state === 'up') this.refresh().catch(() => undefined);
    }, everyMs);
    this.timer.unref();
  }

  stopRefreshing(): void {
    clearInterval(this.timer);
  }

  async get(gameUrl: string, username: string): Promise<{ username: string; password: string } | undefined> {
    const [row] = await this.db.rows<CredentialRow>(
      'SELECT username, password FROM credentials WHERE game_url = $1 AND username = $2',
      [gameUrl, username],
    );
    return copy(row);
  }

  async latest(gameUrl: string): Promise<{ username: string; password: string } | undefined> {
    const [row] = await this.db.rows<CredentialRow>(
      'SELECT username, password FROM credentials WHERE game_url = $1 ORDER BY updated_at DESC, rowid DESC LIMIT 1',
      [gameUrl],
    );
    return copy(row);
  }

  async put(gameUrl: string, username: string, password: string): Promise<void> {
    const list = await this.db.transaction(async (sql) => {
      // Strictly increasing per game so "latest" is the last put even within one millisecond.
      await sql.run(
        `INSERT INTO credentials (game_url, username, password, updated_at)
         VALUES ($1, $2, $3, GREATEST($4, (SELECT COALESCE(MAX(updated_at), 0) + 1 FROM credentials WHERE game_url = $1)))
         ON CONFLICT (game_url, username) DO UPDATE SET password = EXCLUDED.password, updated_at = EXCLUDED.updated_at`,
        [gameUrl, username, password, this.now()],
      );
      return readPasswords(sql);
    });
    this.writes += 1;
    this.keep(list);
  }

  async remove(gameUrl: string, username: string): Promise<boolean> {
    const { removed, list } = await this.db.transaction(async (sql) => ({
      removed: await sql.run('DELETE FROM credentials WHERE game_url = $1 AND username = $2', [gameUrl, username]),
      list: await readPasswords(sql),
    }));
    this.writes += 1;
    this.keep(list);
    return removed > 0;
  }

  passwordList(): readonly string[] {
    return this.passwords;
  }

  async refresh(): Promise<void> {
    const writes = this.writes;
    const list = await readPasswords(this.db);
    if (writes === this.writes) this.keep(list);
  }

  private keep(list: string[]): void {
    if (!sameList(this.passwords, list)) this.passwords = Object.freeze(list);
  }
}

async function readPasswords(sql: Sql): Promise<string[]> {
  return (await sql.rows<{ password: string }>('SELECT DISTINCT password FROM credentials')).map((row) => row.password);
}
