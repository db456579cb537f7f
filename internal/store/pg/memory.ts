// Captain memory on PostgreSQL: plain CRUD, entries redacted before they are stored (a lesson may quote a call's
// arguments), rows read back through SQLite's mapper. A fleet's store hands its marks of use to the group commit.
import type { MemoryEntry, MemoryInput, MemoryKind } from '../../shared/index.js';
import { UsageError } from '../../shared/index.js';
import type { MemoryTable } from '../contract.js';
import { redactValue, type Redactor } from '../redact.js';
import { fromMemoryRow } from '../rows.js';
import type { PgConnection, Sql } from './connection.js';

export interface PgMemoryOptions {
  now: () => number;
  redact: Redactor | undefined;
  /** A fleet's store: marks of use join the group commit; reads wait for what it holds. */
  group?: { soon(write: (sql: Sql) => Promise<void>): Promise<void>; flush(): Promise<void> };
}

/** uses + 1 per time an id is named (as SQLite's one UPDATE per id), last_used_at = now. */
const touchSql = `UPDATE memory SET uses = uses + marks.times, last_used_at = $1
  FROM (SELECT id, COUNT(*) AS times FROM unnest($2::bigint[]) AS id GROUP BY id) AS marks
  WHERE memory.id = marks.id`;

export class PgMemory implements MemoryTable {
  private readonly redact: Redactor;

  constructor(
    private readonly db: PgConnection,
    private readonly options: PgMemoryOptions,
  ) {
    this.redact = options.redact ?? ((text) => text);
  }

  async add(input: MemoryInput): Promise<MemoryEntry> {
    if (input.text.trim() === '') throw new UsageError('a memory entry needs some text');
    const [row] = await this.db.rows(
      `INSERT INTO memory (captain, kind, text, tags, outcome, evidence, uses, created_at, last_used_at)
       VALUES ($1, $2, $3, $4, $5, $6, 0, $7, NULL) RETURNING *`,
      [
        input.captain,
        input.kind,
        this.redact(input.text),
        JSON.stringify(input.tags ?? []),
        input.outcome ?? null,
        input.evidence === undefined ? null : JSON.stringify(redactValue(input.evidence, this.redact)),
        input.createdAt ?? this.options.now(),
      ],
    );
    return fromMemoryRow(row);
  }

  async list(captain: string, options: { kind?: MemoryKind; limit?: number } = {}): Promise<MemoryEntry[]> {
    await this.options.group?.flush();
    const limit = options.limit === undefined ? null : Math.max(0, Math.floor(options.limit));
    const rows = await this.db.rows(
      `SELECT * FROM memory WHERE captain = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY id LIMIT $3`,
      [captain, options.kind ?? null, limit],
    );
    return rows.map(fromMemoryRow);
  }

  async get(id: number): Promise<MemoryEntry | undefined> {
    await this.options.group?.flush();
    const [row] = await this.db.rows('SELECT * FROM memory WHERE id = $1', [id]);
    return row === undefined ? undefined : fromMemoryRow(row);
  }

  async remove(id: number): Promise<boolean> {
    return (await this.db.run('DELETE FROM memory WHERE id = $1', [id])) > 0;
  }

  async clear(captain: string): Promise<number> {
    return this.db.run('DELETE FROM memory WHERE captain = $1', [captain]);
  }

  async touch(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const now = this.options.now();
    const write = async (sql: Sql): Promise<void> => {
      await sql.run(touchSql, [now, [...ids]]);
    };
    if (this.options.group) return this.options.group.soon(write);
    await write(this.db);
  }
}
