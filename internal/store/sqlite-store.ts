// The SQLite store: sessions and their transcripts, plus the records, memory and credentials adapters on the same
// connection. better-sqlite3 is synchronous, so a write has reached the WAL when the call returns (rule 13).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { FatalError, SkipperError, UsageError, type Logger, type Message } from '../shared/index.js';
import { SqliteCredentialStore } from './credentials.js';
import { SqliteMemoryStore } from './memory-store.js';
import { openDatabase } from './open.js';
import { TurnRecords } from './records.js';
import {
  fromMessageRow,
  fromSessionRow,
  insertMessageSql,
  messageColumns,
  toMessageParams,
  type MessageTuple,
} from './rows.js';
import { checkSessionName, generateSessionName } from './session-names.js';
import type {
  AppendableMessage,
  CreateSessionInput,
  MessageRange,
  Session,
  SessionSummary,
  SnapshotInput,
  SnapshotRecord,
  Store,
  TurnRecord,
  UpdateSessionInput,
  UsageRecordInput,
  UsageTotals,
} from './types.js';

export interface StoreOptions {
  /** A file path or ':memory:'. */
  path: string;
  logger?: Logger;
  readonly?: boolean;
  /** Clock, for tests. */
  now?: () => number;
  /** PRAGMA quick_check on open; default: for files under 256 MB. */
  quickCheck?: boolean;
}

export function openStore(options: StoreOptions): Store {
  return new SqliteStore(options);
}

const iteratePageSize = 1000;

const rangeClause = 'session_id = @session AND (@from IS NULL OR turn >= @from) AND (@to IS NULL OR turn <= @to)';

export class SqliteStore implements Store {
  readonly path: string;
  readonly memory: SqliteMemoryStore;
  readonly credentials: SqliteCredentialStore;
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly records: TurnRecords;
  private readonly insertMessage: Database.Statement;
  private readonly selectRange: Database.Statement;
  private readonly selectPage: Database.Statement;
  private readonly selectLastTurn: Database.Statement;
  private readonly countMessages: Database.Statement;
  private readonly sessionByName: Database.Statement;
  private readonly sessionById: Database.Statement;
  private closed = false;

  constructor(options: StoreOptions) {
    this.path = options.path;
    this.now = options.now ?? Date.now;
    this.db = openDatabase({
      path: options.path,
      logger: options.logger,
      readonly: options.readonly,
      quickCheck: options.quickCheck,
    });
    this.memory = new SqliteMemoryStore(this.db, this.now);
    this.credentials = new SqliteCredentialStore(this.db, this.now);
    this.records = new TurnRecords(this.db, this.now);
    this.insertMessage = this.db.prepare(insertMessageSql);
    this.selectRange = this.db.prepare(`SELECT ${messageColumns} FROM messages WHERE ${rangeClause} ORDER BY seq`).raw();
    this.selectPage = this.db
      .prepare(`SELECT ${messageColumns} FROM messages WHERE ${rangeClause} AND seq > @after ORDER BY seq LIMIT @limit`)
      .raw();
    this.selectLastTurn = this.db.prepare(
      'SELECT turn FROM messages WHERE session_id = ? AND turn IS NOT NULL ORDER BY seq DESC LIMIT 1',
    );
    this.countMessages = this.db.prepare('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?');
    this.sessionByName = this.db.prepare('SELECT * FROM sessions WHERE name = ?');
    this.sessionById = this.db.prepare('SELECT * FROM sessions WHERE id = ?');
  }

  // ---- sessions ----

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
    const id = randomUUID();
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
    const summaries = rows.map((row): SessionSummary => {
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
    });
    return summaries.sort((a, b) => b.lastActiveAt - a.lastActiveAt || a.session.name.localeCompare(b.session.name));
  }

  deleteSession(nameOrId: string): boolean {
    const session = this.findSession(nameOrId);
    if (!session) return false;
    // ON DELETE CASCADE removes messages, usage, snapshots and turns in the same statement.
    return this.db.prepare('DELETE FROM sessions WHERE id = ?').run(session.id).changes > 0;
  }

  // ---- messages ----

  append(sessionId: string, message: AppendableMessage): Message {
    const stored = this.complete(message);
    this.write(sessionId, () => this.insertMessage.run(toMessageParams(sessionId, stored)));
    return stored;
  }

  appendMany(sessionId: string, messages: readonly AppendableMessage[]): Message[] {
    const stored = messages.map((message) => this.complete(message));
    this.write(sessionId, () =>
      this.db.transaction(() => {
        for (const message of stored) this.insertMessage.run(toMessageParams(sessionId, message));
      })(),
    );
    return stored;
  }

  messages(sessionId: string, range: MessageRange = {}): Message[] {
    return this.selectRange.all(rangeParams(sessionId, range)).map((row) => fromMessageRow(row, sessionId));
  }

  *iterateMessages(sessionId: string, range: MessageRange = {}): Generator<Message, void, undefined> {
    // Keyset pages: as fast as stmt.iterate() with raw rows, bounded memory, and the connection stays free between
    // pages, so callers may use the store while they iterate.
    const params = { ...rangeParams(sessionId, range), after: -1, limit: iteratePageSize };
    for (;;) {
      const rows = this.selectPage.all(params) as unknown[][];
      for (const row of rows) yield fromMessageRow(row, sessionId);
      if (rows.length < iteratePageSize) return;
      params.after = (rows[rows.length - 1] as MessageTuple)[0];
    }
  }

  messageCount(sessionId: string): number {
    return (this.countMessages.get(sessionId) as { n: number }).n;
  }

  lastTurn(sessionId: string): number {
    const row = this.selectLastTurn.get(sessionId) as { turn: number } | undefined;
    return row?.turn ?? 0;
  }

  // ---- records ----

  recordUsage(input: UsageRecordInput): void {
    this.write(input.sessionId, () => this.records.recordUsage(input));
  }

  usageTotals(sessionId: string): UsageTotals {
    return this.records.usageTotals(sessionId);
  }

  recordSnapshot(input: SnapshotInput): void {
    this.write(input.sessionId, () => this.records.recordSnapshot(input));
  }

  snapshots(sessionId: string): SnapshotRecord[] {
    return this.records.snapshots(sessionId);
  }

  recordTurn(input: TurnRecord): void {
    this.write(input.sessionId, () => this.records.recordTurn(input));
  }

  turns(sessionId: string): TurnRecord[] {
    return this.records.turns(sessionId);
  }

  // ---- lifecycle ----

  integrityCheck(): string[] {
    return (this.db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.db.readonly && this.path !== ':memory:') {
      try {
        this.db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // Another connection may hold the WAL; SQLite checkpoints later. Closing is what matters.
      }
    }
    this.db.close();
  }

  private complete(message: AppendableMessage): Message {
    return { ...message, id: message.id ?? randomUUID(), createdAt: message.createdAt ?? this.now() };
  }

  /** Runs a write, turning SQLite failures into errors that say what happened (storage failures are fatal). */
  private write(sessionId: string, run: () => unknown): void {
    try {
      run();
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
        throw new UsageError(`no session with id ${sessionId}; create it first`, { cause: error });
      }
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new SkipperError('store-duplicate', `already stored: ${(error as Error).message}`, { cause: error });
      }
      throw new FatalError('store-write', `could not write to ${this.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

function rangeParams(sessionId: string, range: MessageRange): Record<string, unknown> {
  return { session: sessionId, from: range.fromTurn ?? null, to: range.toTurn ?? null };
}
