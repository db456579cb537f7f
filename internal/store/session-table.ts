// Session CRUD: create (with a generated or checked name), find by name or id, update, rename, list with the
// figures `skipper sessions` shows, delete (the schema cascades to everything recorded for the session).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { UsageError } from '../shared/index.js';
import { fromSessionRow } from './rows.js';
import { checkSessionName, generateSessionName } from './session-names.js';
import type { CreateSessionInput, Session, SessionSummary, UpdateSessionInput } from './types.js';

export class SessionTable {
  private readonly sessionByName: Database.Statement;
  private readonly sessionById: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.sessionByName = db.prepare('SELECT * FROM sessions WHERE name = ?');
    this.sessionById = db.prepare('SELECT * FROM sessions WHERE id = ?');
  }

  createSession(input: CreateSessionInput): Session {
    const now = this.now();
    let name = input.name;
    if (name === undefined) {
      name = generateSessionName({ now, taken: (candidate) => this.findSession(candidate) !== undefined });
    } else {
      checkSessionName(name);
      if (this.sessionByName.get(name) !== undefined) {
        throw new UsageError(
          `a session named "${name}" already exists; pick another name or resume it with -s ${name}`,
        );
      }
    }
    const id = input.id ?? randomUUID();
    this.db
      .prepare(
        `INSERT INTO sessions (id, name, game, model, username, goal, created_at, updated_at, status, extra)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)`,
      )
      .run(
        id,
        name,
        input.game,
        input.model,
        input.username ?? null,
        input.goal ?? null,
        now,
        now,
        JSON.stringify(input.extra ?? {}),
      );
    return this.getSession(id);
  }

  findSession(nameOrId: string): Session | undefined {
    const row = this.sessionByName.get(nameOrId) ?? this.sessionById.get(nameOrId);
    return row === undefined ? undefined : fromSessionRow(row);
  }

  getSession(nameOrId: string): Session {
    const session = this.findSession(nameOrId);
    if (!session) {
      throw new UsageError(`no session named "${nameOrId}"; \`skipper sessions\` lists them`);
    }
    return session;
  }

  updateSession(nameOrId: string, changes: UpdateSessionInput): Session {
    const session = this.getSession(nameOrId);
    const next = {
      model: changes.model ?? session.model,
      username: changes.username === undefined ? session.username : changes.username,
      goal: changes.goal === undefined ? session.goal : changes.goal,
      status: changes.status ?? session.status,
      extra: JSON.stringify(changes.extra ?? session.extra),
    };
    this.db
      .prepare(
        'UPDATE sessions SET model = ?, username = ?, goal = ?, status = ?, extra = ?, updated_at = ? WHERE id = ?',
      )
      .run(next.model, next.username, next.goal, next.status, next.extra, this.now(), session.id);
    return this.getSession(session.id);
  }

  renameSession(nameOrId: string, newName: string): Session {
    checkSessionName(newName);
    const session = this.getSession(nameOrId);
    if (newName === session.name) return session;
    if (this.sessionByName.get(newName) !== undefined) {
      throw new UsageError(`a session named "${newName}" already exists`);
    }
    this.db.prepare('UPDATE sessions SET name = ?, updated_at = ? WHERE id = ?').run(newName, this.now(), session.id);
    return this.getSession(session.id);
  }

  listSessions(): SessionSummary[] {
    const rows = this.db
      .prepare(
        `SELECT s.*,
           (SELECT turn FROM messages m WHERE m.session_id = s.id AND m.turn IS NOT NULL ORDER BY seq DESC LIMIT 1) AS last_turn,
           (SELECT MAX(turn) FROM turns t WHERE t.session_id = s.id) AS recorded_turns,
           (SELECT created_at FROM messages m WHERE m.session_id = s.id ORDER BY seq DESC LIMIT 1) AS last_message_at,
           (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS message_count,
           (SELECT credits FROM snapshots p WHERE p.session_id = s.id ORDER BY turn DESC LIMIT 1)
             - (SELECT credits FROM snapshots p WHERE p.session_id = s.id ORDER BY turn ASC LIMIT 1) AS credits_delta,
           (SELECT COALESCE(SUM(prompt_tokens + completion_tokens), 0) FROM usage u WHERE u.session_id = s.id) AS tokens,
           (SELECT COALESCE(SUM(cost_usd), 0) FROM usage u WHERE u.session_id = s.id) AS cost
         FROM sessions s`,
      )
      .all() as Array<Record<string, unknown>>;
    const summaries = rows.map(summaryFromRow);
    return summaries.sort((a, b) => b.lastActiveAt - a.lastActiveAt || a.session.name.localeCompare(b.session.name));
  }

  deleteSession(nameOrId: string): boolean {
    const session = this.findSession(nameOrId);
    if (!session) return false;
    // ON DELETE CASCADE removes messages, usage, snapshots and turns in the same statement.
    return this.db.prepare('DELETE FROM sessions WHERE id = ?').run(session.id).changes > 0;
  }
}

/** A row of the session list's query (the session and its figures) as a SessionSummary; both engines' list. */
export function summaryFromRow(row: Record<string, unknown>): SessionSummary {
  const session = fromSessionRow(row);
  const lastMessageAt = typeof row.last_message_at === 'number' ? row.last_message_at : 0;
  return {
    session,
    turns: Math.max(Number(row.last_turn ?? 0), Number(row.recorded_turns ?? 0)),
    messages: Number(row.message_count ?? 0),
    lastActiveAt: Math.max(lastMessageAt, session.updatedAt),
    creditsDelta: row.credits_delta === null ? null : Number(row.credits_delta),
    tokens: Number(row.tokens ?? 0),
    costUsd: Number(row.cost ?? 0),
  };
}
