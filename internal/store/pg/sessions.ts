// Sessions on PostgreSQL: create (a generated or checked name, the row read back through RETURNING), find by name or
// id, update, rename, list with the figures `skipper sessions` shows, delete (the schema cascades to everything
// recorded for the session; a trigger drops the context pieces nothing refers to any more). The messages callers see
// are SQLite's (session-table.ts), word for word.
import { randomUUID } from 'node:crypto';
import { UsageError } from '../../shared/index.js';
import { fromSessionRow } from '../rows.js';
import { checkSessionName, generateSessionName } from '../session-names.js';
import { summaryFromRow } from '../session-table.js';
import type { CreateSessionInput, Session, SessionSummary, UpdateSessionInput } from '../types.js';
import type { PgConnection } from './connection.js';
import { duplicateOf } from './errors.js';

const nameTaken = 'sessions_name_key';

const summarySql = `SELECT s.*,
    (SELECT turn FROM messages m WHERE m.session_id = s.id AND m.turn IS NOT NULL ORDER BY seq DESC LIMIT 1) AS last_turn,
    (SELECT MAX(turn) FROM turns t WHERE t.session_id = s.id) AS recorded_turns,
    (SELECT created_at FROM messages m WHERE m.session_id = s.id ORDER BY seq DESC LIMIT 1) AS last_message_at,
    (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS message_count,
    (SELECT credits FROM snapshots p WHERE p.session_id = s.id ORDER BY turn DESC LIMIT 1)
      - (SELECT credits FROM snapshots p WHERE p.session_id = s.id ORDER BY turn ASC LIMIT 1) AS credits_delta,
    (SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) FROM usage u WHERE u.session_id = s.id) AS tokens,
    (SELECT COALESCE(SUM(cost_usd), 0) FROM usage u WHERE u.session_id = s.id) AS cost
  FROM sessions s`;

export class PgSessions {
  constructor(
    private readonly db: PgConnection,
    private readonly now: () => number,
  ) {}

  async create(input: CreateSessionInput): Promise<Session> {
    if (input.name !== undefined) {
      checkSessionName(input.name);
      if (await this.byName(input.name)) throw existsError(input.name);
    }
    // A generated name another process took meanwhile is generated again; a given one is the caller's to change.
    for (let attempt = 1; ; attempt += 1) {
      const name = input.name ?? (await this.freshName());
      try {
        return await this.insert(input, name);
      } catch (error) {
        if (duplicateOf(error) !== nameTaken) throw error;
        if (input.name !== undefined || attempt >= 5) throw existsError(name);
      }
    }
  }

  async find(nameOrId: string): Promise<Session | undefined> {
    const [row] = await this.db.rows(
      'SELECT * FROM sessions WHERE name = $1 OR id = $1 ORDER BY (name = $1) DESC LIMIT 1',
      [nameOrId],
    );
    return row === undefined ? undefined : fromSessionRow(row);
  }

  async get(nameOrId: string): Promise<Session> {
    const session = await this.find(nameOrId);
    if (!session) throw new UsageError(`no session named "${nameOrId}"; \`skipper sessions\` lists them`);
    return session;
  }

  async update(nameOrId: string, changes: UpdateSessionInput): Promise<Session> {
    const session = await this.get(nameOrId);
    const [row] = await this.db.rows(
      `UPDATE sessions SET model = $1, username = $2, goal = $3, status = $4, extra = $5, updated_at = $6
       WHERE id = $7 RETURNING *`,
      [
        changes.model ?? session.model,
        changes.username === undefined ? session.username : changes.username,
        changes.goal === undefined ? session.goal : changes.goal,
        changes.status ?? session.status,
        JSON.stringify(changes.extra ?? session.extra),
        this.now(),
        session.id,
      ],
    );
    return row === undefined ? this.get(session.id) : fromSessionRow(row);
  }

  async rename(nameOrId: string, newName: string): Promise<Session> {
    checkSessionName(newName);
    const session = await this.get(nameOrId);
    if (newName === session.name) return session;
    if (await this.byName(newName)) throw new UsageError(`a session named "${newName}" already exists`);
    try {
      const [row] = await this.db.rows('UPDATE sessions SET name = $1, updated_at = $2 WHERE id = $3 RETURNING *', [
        newName,
        this.now(),
        session.id,
      ]);
      return row === undefined ? this.get(session.id) : fromSessionRow(row);
    } catch (error) {
      if (duplicateOf(error) === nameTaken) throw new UsageError(`a session named "${newName}" already exists`);
      throw error;
    }
  }

  /** Most recently active first (ties by name), as SQLite sorts them. */
  async list(): Promise<SessionSummary[]> {
    const summaries = (await this.db.rows(summarySql)).map(summaryFromRow);
    return summaries.sort((a, b) => b.lastActiveAt - a.lastActiveAt || a.session.name.localeCompare(b.session.name));
  }

  async delete(nameOrId: string): Promise<boolean> {
    const session = await this.find(nameOrId);
    if (!session) return false;
    return (await this.db.run('DELETE FROM sessions WHERE id = $1', [session.id])) > 0;
  }

  private async byName(name: string): Promise<boolean> {
    return (await this.db.rows('SELECT 1 FROM sessions WHERE name = $1', [name])).length > 0;
  }

  /** A generated name none of today's sessions has (one read of today's names, not one per candidate). */
  private async freshName(): Promise<string> {
    const now = this.now();
    const day = new Date(now).toISOString().slice(0, 10);
    const rows = await this.db.rows<{ name: string }>('SELECT name FROM sessions WHERE left(name, 11) = $1', [
      `${day}-`,
    ]);
    const taken = new Set(rows.map((row) => row.name));
    return generateSessionName({ now, taken: (candidate) => taken.has(candidate) });
  }

  private async insert(input: CreateSessionInput, name: string): Promise<Session> {
    const now = this.now();
    const [row] = await this.db.rows(
      `INSERT INTO sessions (id, name, game, model, username, goal, created_at, updated_at, status, extra)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, 'active', $8) RETURNING *`,
      [
        input.id ?? randomUUID(),
        name,
        input.game,
        input.model,
        input.username ?? null,
        input.goal ?? null,
        now,
        JSON.stringify(input.extra ?? {}),
      ],
    );
    if (row === undefined) throw new UsageError(`the session "${name}" was not stored`);
    return fromSessionRow(row);
  }
}

function existsError(name: string): UsageError {
  return new UsageError(`a session named "${name}" already exists; pick another name or resume it with -s ${name}`);
}
