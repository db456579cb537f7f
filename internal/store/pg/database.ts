// The part of better-sqlite3's Database that the store's modules use (prepare → run/get/all/raw, transaction,
// pragma, exec, close), over a PostgreSQL connection reached through the synchronous bridge. With it the SQLite
// store's modules run unchanged on PostgreSQL: statements are translated once when prepared (translate.ts), a
// transaction is BEGIN … COMMIT on the bridge's one connection (SAVEPOINTs when nested), and PostgreSQL's
// constraint errors carry the SQLite codes the write guard already tells apart.
import type Database from 'better-sqlite3';
import { SkipperError } from '../../shared/index.js';
import { PgStatementError, SyncBridge, type BridgeStep, type StepResult } from './bridge.js';
import { translate, type Translated } from './translate.js';

/** Holding it serialises writers the way SQLite's BEGIN IMMEDIATE does (lease takeover relies on that). */
export const writeLockKey = 0x534b5052;

/** The SQLite code the write guard knows, for PostgreSQL's SQLSTATE. */
const sqliteCodes: Readonly<Record<string, string>> = {
  '23503': 'SQLITE_CONSTRAINT_FOREIGNKEY',
  '23505': 'SQLITE_CONSTRAINT_UNIQUE',
  '23514': 'SQLITE_CONSTRAINT_CHECK',
  '23502': 'SQLITE_CONSTRAINT_NOTNULL',
};

type Params = unknown[];

/** better-sqlite3 binds `run(a, b)`, `run([a, b])` or `run({ name })`; booleans and undefined are ours to map. */
function bind(translated: Translated, args: Params): unknown[] {
  const first = args[0];
  const named =
    args.length === 1 && first !== null && typeof first === 'object' && !Array.isArray(first) && !isBytes(first)
      ? (first as Record<string, unknown>)
      : undefined;
  const positional = args.flat();
  return translated.params.map((key) => toParam(typeof key === 'number' ? positional[key] : named?.[key]));
}

function isBytes(value: unknown): boolean {
  return value instanceof Uint8Array;
}

function toParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** Replies cross the thread as structured clones: a Buffer arrives as a plain Uint8Array. */
function fromCell(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;
}

function fromRow(row: unknown): unknown {
  if (Array.isArray(row)) return row.map(fromCell);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row as Record<string, unknown>)) out[key] = fromCell(value);
  return out;
}

function firstColumn(row: unknown): unknown {
  return Array.isArray(row) ? row[0] : Object.values(row as Record<string, unknown>)[0];
}

export class PgStatement {
  private rawRows = false;
  private plucked = false;
  private readonly translated: Translated;
  private readonly name: string;
  /** `PRAGMA name`: SQLite's pragmas have no SQL here; the stand-in's pragma() answers them. */
  private readonly pragma: string | undefined;

  constructor(
    private readonly db: PgDatabase,
    readonly source: string,
  ) {
    this.pragma = /^\s*PRAGMA\s+(\w+)\s*;?\s*$/i.exec(source)?.[1];
    this.translated = this.pragma ? { text: '', params: [], returnsId: false } : translate(source);
    this.name = this.pragma ? '' : db.statementName(this.translated.text);
  }

  raw(toggle = true): this {
    this.rawRows = toggle;
    return this;
  }

  /** Rows as their first column's value, as better-sqlite3's pluck(). */
  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }

  run(...args: Params): Database.RunResult {
    const result = this.execute(args);
    const first = result.rows[0] as Record<string, unknown> | undefined;
    const id = this.translated.returnsId && first ? Number(Object.values(first)[0]) : 0;
    return { changes: result.changes, lastInsertRowid: id };
  }

  get(...args: Params): unknown {
    return this.all(...args)[0];
  }

  all(...args: Params): unknown[] {
    const rows = this.pragma
      ? [{ [this.pragma]: this.db.pragma(this.pragma, { simple: true }) }]
      : this.execute(args).rows;
    return this.plucked ? rows.map(firstColumn) : rows;
  }

  private execute(args: Params): StepResult {
    const result = this.db.send({
      sql: this.translated.text,
      params: bind(this.translated, args),
      raw: this.rawRows,
      name: this.name,
    });
    return { rows: result.rows.map(fromRow), changes: result.changes };
  }
}

type TransactionFunction<T> = ((...args: unknown[]) => T) & {
  immediate: (...args: unknown[]) => T;
  deferred: (...args: unknown[]) => T;
  exclusive: (...args: unknown[]) => T;
};

export class PgDatabase {
  readonly readonly = false;
  readonly open = true;
  private depth = 0;
  /** Steps sent ahead of the next statement in the same round trip (BEGIN, SAVEPOINT). */
  private pending: BridgeStep[] = [];
  private version = 0;
  private readonly names = new Map<string, string>();

  constructor(readonly bridge: SyncBridge) {}

  prepare(sql: string): PgStatement {
    return new PgStatement(this, sql);
  }

  /** One server-side name per distinct statement text, so a statement prepared again reuses the parsed one. */
  statementName(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `skipper_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name;
  }

  exec(sql: string): this {
    this.send({ sql });
    return this;
  }

  /** One statement, with whatever the open transaction still has to send first. */
  send(step: BridgeStep): StepResult {
    const steps = [...this.pending, step];
    this.pending = [];
    try {
      const results = steps.length === 1 ? [this.bridge.query(step)] : this.bridge.script(steps);
      return results[results.length - 1] as StepResult;
    } catch (error) {
      throw withSqliteCode(error);
    }
  }

  transaction<T>(run: (...args: unknown[]) => T): TransactionFunction<T> {
    const make =
      (lock: boolean) =>
      (...args: unknown[]): T =>
        this.inTransaction(lock, () => run(...args));
    return Object.assign(make(false), { immediate: make(true), deferred: make(false), exclusive: make(true) });
  }

  /** The pragmas the store reads; anything else is a mistake to find in tests, not to ignore. */
  pragma(source: string, options?: { simple?: boolean }): unknown {
    const name = source.trim().split(/[\s(=]/)[0];
    if (name === 'data_version') {
      // SQLite bumps it on another connection's commit; here nobody can tell, so it always says "changed".
      this.version += 1;
      return options?.simple ? this.version : [{ data_version: this.version }];
    }
    if (name === 'integrity_check' || name === 'quick_check') {
      this.send({ sql: 'SELECT 1' });
      return options?.simple ? 'ok' : [{ [name]: 'ok' }];
    }
    if (name === 'wal_checkpoint' || name === 'foreign_keys') return options?.simple ? 0 : [];
    throw new SkipperError('store_read', `PRAGMA ${source} has no PostgreSQL equivalent in Skipper's store`);
  }

  close(): void {
    this.bridge.close();
  }

  private inTransaction<T>(lock: boolean, run: () => T): T {
    const savepoint = `skipper_${this.depth}`;
    if (this.depth === 0) {
      this.pending.push({ sql: 'BEGIN' });
      if (lock) this.pending.push({ sql: `SELECT pg_advisory_xact_lock(${writeLockKey})` });
    } else {
      this.pending.push({ sql: `SAVEPOINT ${savepoint}` });
    }
    this.depth += 1;
    let result: T;
    try {
      result = run();
    } catch (error) {
      this.depth -= 1;
      this.finish(this.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
      throw error;
    }
    this.depth -= 1;
    this.finish(this.depth === 0 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
    return result;
  }

  private finish(sql: string): void {
    // Opening steps still waiting mean this level sent nothing: drop them instead of sending an empty transaction.
    if (this.pending.length > 0) {
      if (this.depth === 0) this.pending = [];
      else this.pending.pop();
      return;
    }
    if (this.bridge.broken) return;
    this.send({ sql });
  }
}

function withSqliteCode(error: unknown): unknown {
  if (!(error instanceof PgStatementError)) return error;
  // The fence of captain leases (schema migration 5): this worker lost the captain it writes for.
  if (error.code === 'SK001') return new SkipperError('session_leased', error.message, { cause: error });
  const code = error.code === undefined ? undefined : sqliteCodes[error.code];
  if (code !== undefined) Object.defineProperty(error, 'code', { value: code });
  return error;
}

/** The façade typed as what the store's modules take. */
export function asSqliteDatabase(db: PgDatabase): Database.Database {
  return db as unknown as Database.Database;
}
