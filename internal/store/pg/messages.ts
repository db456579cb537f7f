// Transcripts on PostgreSQL: appends through the group commit (each durable when its promise resolves, rule 13), a
// batch all or nothing in its own transaction, and the replay queries — a turn range at once, or streamed in keyset
// pages of 1000 by seq. Rows are read as arrays and checked by the mapper SQLite's log uses (rows.ts).
import { randomUUID } from 'node:crypto';
import type { Message } from '../../shared/index.js';
import { fromMessageRow, messageColumns, toMessageParams, type MessageParams } from '../rows.js';
import type { AppendableMessage, MessageRange } from '../types.js';
import type { PgConnection, Sql } from './connection.js';
import type { PgGroupCommit } from './group-commit.js';

const iteratePageSize = 1000;

/** The columns of a message row with their PostgreSQL types, in the order they are inserted. */
const insertColumns = [
  ['id', 'text'],
  ['session_id', 'text'],
  ['turn', 'bigint'],
  ['round', 'bigint'],
  ['role', 'text'],
  ['content', 'text'],
  ['tool_calls', 'text'],
  ['tool_call_id', 'text'],
  ['tool_name', 'text'],
  ['data', 'text'],
  ['is_error', 'bigint'],
  ['reasoning', 'text'],
  ['created_at', 'bigint'],
] as const satisfies ReadonlyArray<readonly [keyof MessageParams, string]>;

const names = insertColumns.map(([name]) => name).join(', ');

/** One statement for any number of rows (one array per column): the same text every time, seq given in order. */
const insertSql = `INSERT INTO messages (${names})
  SELECT ${names} FROM unnest(${insertColumns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
    WITH ORDINALITY AS t(${names}, position)
  ORDER BY position`;

export async function insertMessages(sql: Sql, messages: readonly MessageParams[]): Promise<void> {
  await sql.run(
    insertSql,
    insertColumns.map(([name]) => messages.map((message) => message[name])),
  );
}

const rangeClause = 'session_id = $1 AND ($2::bigint IS NULL OR turn >= $2) AND ($3::bigint IS NULL OR turn <= $3)';

export class PgMessageLog {
  constructor(
    private readonly db: PgConnection,
    private readonly options: { group: PgGroupCommit; now: () => number },
  ) {}

  /** Resolves once the transaction holding it has committed. */
  append(sessionId: string, message: AppendableMessage): Promise<Message> {
    const stored = this.complete(message);
    return new Promise((resolve, reject) => {
      this.options.group.add({
        messages: [toMessageParams(sessionId, stored)],
        committed: () => resolve(stored),
        failed: reject,
      });
    });
  }

  /** All or nothing: the batch is one write of the group commit (alone in a transaction when its batch fails). */
  appendMany(sessionId: string, messages: readonly AppendableMessage[]): Promise<Message[]> {
    const stored = messages.map((message) => this.complete(message));
    if (stored.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.options.group.add({
        messages: stored.map((message) => toMessageParams(sessionId, message)),
        committed: () => resolve(stored),
        failed: reject,
      });
    });
  }

  async messages(sessionId: string, range: MessageRange = {}): Promise<Message[]> {
    await this.options.group.flush();
    const rows = await this.db.arrays(
      `SELECT ${messageColumns} FROM messages WHERE ${rangeClause} ORDER BY seq`,
      rangeParams(sessionId, range),
    );
    return rows.map((row) => fromMessageRow(row, sessionId));
  }

  /** Keyset pages: bounded memory, and no connection held between pages (callers use the store meanwhile). */
  async *iterate(sessionId: string, range: MessageRange = {}): AsyncGenerator<Message, void, undefined> {
    let after = -1;
    for (;;) {
      await this.options.group.flush();
      const rows = await this.db.arrays(
        `SELECT ${messageColumns} FROM messages WHERE ${rangeClause} AND seq > $4 ORDER BY seq LIMIT $5`,
        [...rangeParams(sessionId, range), after, iteratePageSize],
      );
      for (const row of rows) yield fromMessageRow(row, sessionId);
      if (rows.length < iteratePageSize) return;
      after = Number(rows[rows.length - 1]?.[0]);
    }
  }

  async count(sessionId: string): Promise<number> {
    await this.options.group.flush();
    const [row] = await this.db.rows<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE session_id = $1', [
      sessionId,
    ]);
    return row?.n ?? 0;
  }

  async lastTurn(sessionId: string): Promise<number> {
    await this.options.group.flush();
    const [row] = await this.db.rows<{ turn: number }>(
      'SELECT turn FROM messages WHERE session_id = $1 AND turn IS NOT NULL ORDER BY seq DESC LIMIT 1',
      [sessionId],
    );
    return row?.turn ?? 0;
  }

  /** Ids and timestamps are made here, by code (rule 7), when the caller brings none. */
  private complete(message: AppendableMessage): Message {
    return { ...message, id: message.id ?? randomUUID(), createdAt: message.createdAt ?? this.options.now() };
  }
}

function rangeParams(sessionId: string, range: MessageRange): unknown[] {
  return [sessionId, range.fromTurn ?? null, range.toTurn ?? null];
}
