// The group commit on PostgreSQL (as group-commit.ts is SQLite's): writes handed in while the event loop turns are
// committed together in one transaction once it has turned (setImmediate), each caller told after COMMIT. One batch
// is in flight at a time and what arrives meanwhile waits for the next, so a busy fleet's batches grow instead of
// its commits multiplying, and writes keep the order they were handed in (a session's messages their seq order).
// Message rows of a batch go in one INSERT (an array per column): one round trip for a tick of a fleet's
// transcripts; so do the rows of any other table handed in as `rows` (usage), one INSERT per table. A failed batch is tried again one write at a time, each in its own transaction, so each caller hears
// its own answer and one bad write costs no other.
import type { PgConnection, Sql } from './connection.js';
import type { MessageParams } from '../rows.js';
import { insertMessages } from './messages.js';

/** Rows of one table, inserted with the batch's other rows handed in with the same `insert` in one statement. */
export interface RowsWrite {
  /** One statement for any number of the table's rows, in the order given. */
  insert: (sql: Sql, rows: readonly unknown[][]) => Promise<void>;
  rows: readonly unknown[][];
}

export interface GroupedWrite {
  /** Message rows, inserted with the batch's others in one statement. */
  messages?: readonly MessageParams[];
  /** Rows of another table (usage), likewise. */
  rows?: RowsWrite;
  /** Any other write; may run again alone when its batch failed. */
  run?: (sql: Sql) => Promise<void>;
  committed: () => void;
  failed: (error: unknown) => void;
}

export class PgGroupCommit {
  private pending: GroupedWrite[] = [];
  private scheduled = false;
  private draining = false;

  constructor(private readonly db: PgConnection) {}

  add(write: GroupedWrite): void {
    this.pending.push(write);
    if (this.scheduled || this.draining) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // drain() settles every write's caller itself; a caller's callback that throws must not end the process.
      this.drain().catch(() => undefined);
    });
  }

  /** Resolves once everything handed in so far has been committed (or has failed, its caller told). */
  flush(): Promise<void> {
    if (this.pending.length === 0 && !this.draining && !this.scheduled) return Promise.resolve();
    return new Promise((resolve) => this.add({ committed: resolve, failed: () => resolve() }));
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        await this.commit(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  private async commit(batch: readonly GroupedWrite[]): Promise<void> {
    const writes = batch.filter(writesSomething);
    if (writes.length === 0) {
      for (const item of batch) item.committed();
      return;
    }
    try {
      await this.write(writes);
    } catch (error) {
      if (writes.length > 1) return this.oneByOne(batch);
      // One write, tried once as its own transaction already: its error is its caller's.
      for (const item of batch) {
        if (writes.includes(item)) item.failed(error);
        else item.committed();
      }
      return;
    }
    for (const item of batch) item.committed();
  }

  /** Messages alone are one INSERT, a transaction by itself (no BEGIN and COMMIT round trips); anything else joins
   * them in BEGIN … COMMIT. */
  private async write(writes: readonly GroupedWrite[]): Promise<void> {
    if (writes.every((item) => item.run === undefined && item.rows === undefined)) {
      await insertMessages(
        this.db,
        writes.flatMap((item) => item.messages ?? []),
      );
      return;
    }
    await this.db.transaction((sql) => writeAll(sql, writes));
  }

  /** The batch failed as a whole: each write again in its own transaction, each caller told its own outcome. */
  private async oneByOne(batch: readonly GroupedWrite[]): Promise<void> {
    for (const item of batch) {
      if (!writesSomething(item)) {
        item.committed();
        continue;
      }
      try {
        await this.write([item]);
      } catch (error) {
        item.failed(error);
        continue;
      }
      item.committed();
    }
  }
}

function writesSomething(item: GroupedWrite): boolean {
  return item.messages !== undefined || item.rows !== undefined || item.run !== undefined;
}

async function writeAll(sql: Sql, writes: readonly GroupedWrite[]): Promise<void> {
  const messages = writes.flatMap((item) => item.messages ?? []);
  if (messages.length > 0) await insertMessages(sql, messages);
  const tables = new Map<RowsWrite['insert'], unknown[][]>();
  for (const { rows } of writes) if (rows) tables.set(rows.insert, [...(tables.get(rows.insert) ?? []), ...rows.rows]);
  for (const [insert, rows] of tables) await insert(sql, rows);
  for (const item of writes) if (item.run) await item.run(sql);
}
