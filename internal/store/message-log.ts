// A session's transcript in SQLite: appends (one autocommit INSERT each, or one transaction for a batch) and the
// replay queries (a turn range at once, or streamed in keyset pages).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Message } from '../shared/index.js';
import { fromMessageRow, insertMessageSql, messageColumns, toMessageParams, type MessageTuple } from './rows.js';
import type { AppendableMessage, MessageRange } from './types.js';
import { guardedWrite } from './write-guard.js';

const iteratePageSize = 1000;

const rangeClause = 'session_id = @session AND (@from IS NULL OR turn >= @from) AND (@to IS NULL OR turn <= @to)';

interface Queued {
  sessionId: string;
  message: Message;
  resolve: (message: Message) => void;
  reject: (error: unknown) => void;
}

export class MessageLog {
  /** Messages handed to appendCommitted, waiting for the commit that takes them all. */
  private queued: Queued[] = [];
  private readonly insertMessage: Database.Statement;
  private readonly selectRange: Database.Statement;
  private readonly selectPage: Database.Statement;
  private readonly selectLastTurn: Database.Statement;
  private readonly countMessages: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly options: { path: string; now: () => number },
  ) {
    this.insertMessage = db.prepare(insertMessageSql);
    this.selectRange = db.prepare(`SELECT ${messageColumns} FROM messages WHERE ${rangeClause} ORDER BY seq`).raw();
    this.selectPage = db
      .prepare(`SELECT ${messageColumns} FROM messages WHERE ${rangeClause} AND seq > @after ORDER BY seq LIMIT @limit`)
      .raw();
    this.selectLastTurn = db.prepare(
      'SELECT turn FROM messages WHERE session_id = ? AND turn IS NOT NULL ORDER BY seq DESC LIMIT 1',
    );
    this.countMessages = db.prepare('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?');
  }

  append(sessionId: string, message: AppendableMessage): Message {
    const stored = this.complete(message);
    this.write(sessionId, () => this.insertMessage.run(toMessageParams(sessionId, stored)));
    return stored;
  }

  /**
   * Resolves once the message is committed (rule 13), with every message handed in meanwhile by any session in one
   * transaction (a group commit): a fleet's captains append together around each tick, and one commit each cost more
   * than the rest of their inserts. A failed batch is tried again one message at a time, so each caller gets its own
   * answer and one bad message costs no other.
   */
  appendCommitted(sessionId: string, message: AppendableMessage): Promise<Message> {
    const stored = this.complete(message);
    return new Promise((resolve, reject) => {
      if (this.queued.length === 0) setImmediate(() => this.commitQueued());
      this.queued.push({ sessionId, message: stored, resolve, reject });
    });
  }

  /** Commits what appendCommitted queued (the store calls it before it closes, too). */
  commitQueued(): void {
    const batch = this.queued;
    if (batch.length === 0) return;
    this.queued = [];
    const insert = (item: Queued): unknown => this.insertMessage.run(toMessageParams(item.sessionId, item.message));
    try {
      this.write(batch[0]!.sessionId, () => this.db.transaction(() => batch.forEach(insert))());
    } catch {
      for (const item of batch) {
        try {
          this.write(item.sessionId, () => insert(item));
        } catch (error) {
          item.reject(error);
          continue;
        }
        item.resolve(item.message);
      }
      return;
    }
    for (const item of batch) item.resolve(item.message);
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

  /** Ids and timestamps are made here, by code (rule 7), when the caller brings none. */
  private complete(message: AppendableMessage): Message {
    return { ...message, id: message.id ?? randomUUID(), createdAt: message.createdAt ?? this.options.now() };
  }

  private write(sessionId: string, run: () => unknown): void {
    guardedWrite({ path: this.options.path, sessionId, run });
  }
}

function rangeParams(sessionId: string, range: MessageRange): Record<string, unknown> {
  return { session: sessionId, from: range.fromTurn ?? null, to: range.toTurn ?? null };
}
