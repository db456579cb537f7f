// A session's transcript in SQLite: appends (one autocommit INSERT each, in the store's group commit, or one
// transaction for a batch) and the replay queries (a turn range at once, or streamed in keyset pages).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Message } from '../shared/index.js';
import { fromMessageRow, insertMessageSql, messageColumns, toMessageParams, type MessageTuple } from './rows.js';
import type { AppendableMessage, MessageRange } from './types.js';
import type { GroupCommit } from './group-commit.js';
import { guardedWrite } from './write-guard.js';

const iteratePageSize = 1000;

const rangeClause = 'session_id = @session AND (@from IS NULL OR turn >= @from) AND (@to IS NULL OR turn <= @to)';

export class MessageLog {
  private readonly insertMessage: Database.Statement;
  private readonly selectRange: Database.Statement;
  private readonly selectPage: Database.Statement;
  private readonly selectLastTurn: Database.Statement;
  private readonly countMessages: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly options: { path: string; now: () => number; group: GroupCommit },
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
   * Resolves once the message is committed (rule 13), in the store's group commit: with every write handed in
   * meanwhile by any session, in one transaction (see GroupCommit).
   */
  appendCommitted(sessionId: string, message: AppendableMessage): Promise<Message> {
    const stored = this.complete(message);
    return new Promise((resolve, reject) => {
      this.options.group.add(sessionId, () => this.insertMessage.run(toMessageParams(sessionId, stored)), {
        committed: () => resolve(stored),
        failed: reject,
      });
    });
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
