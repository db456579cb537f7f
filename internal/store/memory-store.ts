// Captain memory rows: plain CRUD. Which entries to show the model (ranking, budgets) lives in internal/llm.
import type Database from 'better-sqlite3';
import { UsageError } from '../shared/index.js';
import { redactValue, type Redactor } from './redact.js';
import { fromMemoryRow } from './rows.js';
import type { MemoryEntry, MemoryInput, MemoryKind, MemoryStore } from './types.js';

/** The memory owner key: one captain per game and account. */
export function captainId(options: { game: string; username: string }): string {
  return `${options.game}#${options.username}`;
}

export class SqliteMemoryStore implements MemoryStore {
  private readonly insert: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly deleteById: Database.Statement;
  private readonly deleteByCaptain: Database.Statement;
  private readonly touchOne: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
    /** The run's known secrets, redacted before an entry is stored (a lesson may quote a call's arguments). */
    private readonly redact: Redactor = (text) => text,
    /** A fleet's store: marks of use join its group commit, and reads commit what waits first. */
    private readonly group?: { soon(write: () => unknown): void; commit(): void },
  ) {
    this.insert = db.prepare(
      `INSERT INTO memory (captain, kind, text, tags, outcome, evidence, uses, created_at, last_used_at)
       VALUES (@captain, @kind, @text, @tags, @outcome, @evidence, 0, @created_at, NULL)`,
    );
    this.byId = db.prepare('SELECT * FROM memory WHERE id = ?');
    this.deleteById = db.prepare('DELETE FROM memory WHERE id = ?');
    this.deleteByCaptain = db.prepare('DELETE FROM memory WHERE captain = ?');
    this.touchOne = db.prepare('UPDATE memory SET uses = uses + 1, last_used_at = ? WHERE id = ?');
  }

  add(input: MemoryInput): MemoryEntry {
    if (input.text.trim() === '') throw new UsageError('a memory entry needs some text');
    const row = {
      captain: input.captain,
      kind: input.kind,
      text: this.redact(input.text),
      tags: JSON.stringify(input.tags ?? []),
      outcome: input.outcome ?? null,
      evidence: input.evidence === undefined ? null : JSON.stringify(redactValue(input.evidence, this.redact)),
      created_at: input.createdAt ?? this.now(),
    };
    const info = this.insert.run(row);
    // The entry as a read of its row would give it (the JSON columns parsed back), without reading it.
    return {
      id: Number(info.lastInsertRowid),
      captain: row.captain,
      kind: row.kind,
      text: row.text,
      tags: JSON.parse(row.tags) as string[],
      outcome: row.outcome,
      evidence: row.evidence === null ? null : (JSON.parse(row.evidence) as unknown),
      uses: 0,
      createdAt: row.created_at,
      lastUsedAt: null,
    };
  }

  list(captain: string, options: { kind?: MemoryKind; limit?: number } = {}): MemoryEntry[] {
    this.group?.commit();
    const clauses = ['captain = @captain'];
    if (options.kind) clauses.push('kind = @kind');
    const limit = options.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(options.limit))}`;
    const rows = this.db
      .prepare(`SELECT * FROM memory WHERE ${clauses.join(' AND ')} ORDER BY id${limit}`)
      .all({ captain, kind: options.kind ?? null });
    return rows.map(fromMemoryRow);
  }

  get(id: number): MemoryEntry | undefined {
    this.group?.commit();
    const row = this.byId.get(id);
    return row === undefined ? undefined : fromMemoryRow(row);
  }

  remove(id: number): boolean {
    return this.deleteById.run(id).changes > 0;
  }

  clear(captain: string): number {
    return this.deleteByCaptain.run(captain).changes;
  }

  touch(ids: readonly number[]): void {
    const now = this.now();
    const write = (): void => {
      for (const id of ids) this.touchOne.run(now, id);
    };
    if (this.group) this.group.soon(write);
    else this.db.transaction(write)();
  }
}
