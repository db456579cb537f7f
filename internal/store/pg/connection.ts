// The store's connection to PostgreSQL: a pg.Pool (no worker thread, nothing blocks the event loop), the settings
// that keep a dead server from hanging a call (connect and query timeouts, TCP keepalive), and the one path every
// statement takes — refused at once while the database is down or the store closed, its failure turned into a
// Skipper error (errors.ts) and, when the database could not be reached, the store marked down (health.ts).
// Transactions check a client out of the pool for BEGIN … COMMIT; a client whose connection failed is destroyed
// rather than handed back. The pool's and its clients' 'error' events are always listened to: a connection that
// dies while idle costs that connection, never the process.
import pg from 'pg';
import type { Logger } from '../../shared/index.js';
import { SkipperError } from '../../shared/index.js';
import type { StoreHealth } from '../contract.js';
import { isUnreachable, oneLine, statementError, unavailableError } from './errors.js';
import { HealthMonitor } from './health.js';

export type Params = readonly unknown[];
export type Row = Record<string, unknown>;

/** SQL on the pool (each statement its own transaction) or inside one transaction. */
export interface Sql {
  rows<R extends object = Row>(text: string, params?: Params): Promise<R[]>;
  /** Rows as arrays of column values, in the order selected. */
  arrays(text: string, params?: Params): Promise<unknown[][]>;
  /** How many rows the statement changed. */
  run(text: string, params?: Params): Promise<number>;
}

export interface PgConnectionOptions {
  /** node-postgres's connection string (no `schema` parameter). */
  url: string;
  schema: string | undefined;
  /** The URL without its password. */
  label: string;
  /** pg_stat_activity's application_name: which connections are this store's. */
  applicationName?: string | undefined;
  poolSize?: number | undefined;
  /** A read-only store: every transaction is READ ONLY on the server. */
  readonly?: boolean | undefined;
  logger?: Logger | undefined;
  connectTimeoutMs?: number | undefined;
  queryTimeoutMs?: number | undefined;
  /** Backoff of the probe while down (tests shorten it). */
  firstProbeMs?: number | undefined;
  maxProbeMs?: number | undefined;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * BIGINT and NUMERIC as numbers: epoch milliseconds, ids, counts and sums stay far below 2^53, and the row mappers
 * shared with SQLite check them as integers (node-postgres would hand them over as strings).
 */
const numericTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? (text: string) => Number(text)
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

function poolConfig(options: PgConnectionOptions): pg.PoolConfig {
  const settings = [
    options.schema === undefined ? '' : `-c search_path=${options.schema}`,
    options.readonly ? '-c default_transaction_read_only=on' : '',
  ].filter((setting) => setting !== '');
  return {
    connectionString: options.url,
    application_name: options.applicationName ?? 'skipper',
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // The client gives up a little after the server would: a statement that outlives its deadline was cancelled
    // server-side first, and the connection it ran on is destroyed either way.
    query_timeout: options.queryTimeoutMs ?? 30_000,
    statement_timeout: Math.max(1_000, (options.queryTimeoutMs ?? 30_000) - 5_000),
    // TCP keepalive from 10 s idle (the OS default waits two hours): a peer gone without a word is found out.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    idleTimeoutMillis: 30_000,
    types: numericTypes,
    ...(settings.length > 0 ? { options: settings.join(' ') } : {}),
  };
}

function clientSql(client: pg.PoolClient): Sql {
  return {
    rows: async <R extends object>(text: string, params: Params = []) =>
      (await client.query<R & pg.QueryResultRow>(text, [...params])).rows,
    arrays: async (text: string, params: Params = []) =>
      (await client.query<unknown[]>({ text, values: [...params], rowMode: 'array' })).rows,
    run: async (text: string, params: Params = []) => (await client.query(text, [...params])).rowCount ?? 0,
  };
}

/** Whether a statement writes (for the error's code: store_write or store_read). */
function writes(text: string): boolean {
  return /^\s*(INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\b/i.test(text);
}

export class PgConnection implements Sql {
  readonly pool: pg.Pool;
  readonly label: string;
  readonly schema: string | undefined;
  private readonly monitor: HealthMonitor;
  private closed = false;

  constructor(options: PgConnectionOptions) {
    this.label = options.label;
    this.schema = options.schema;
    this.pool = new pg.Pool(poolConfig(options));
    const logger = options.logger;
    // An idle connection that dies is dropped by the pool, which then tells us: nothing to do but not crash.
    this.pool.on('error', (error) =>
      logger?.debug({ database: this.label, err: oneLine(error) }, 'idle connection lost'),
    );
    // A checked-out client reports a dead connection through its next query as well: this listener only keeps the
    // process alive when it dies between two statements.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
    this.monitor = new HealthMonitor({
      probe: async () => {
        await this.pool.query('SELECT 1');
      },
      changed: (health) => {
        if (health.state === 'down') {
          logger?.warn({ database: this.label, error: health.error }, 'store unreachable; retrying with backoff');
        } else logger?.info({ database: this.label }, 'store reachable again');
      },
      ...(options.firstProbeMs !== undefined ? { firstProbeMs: options.firstProbeMs } : {}),
      ...(options.maxProbeMs !== undefined ? { maxProbeMs: options.maxProbeMs } : {}),
    });
  }

  get health(): StoreHealth {
    return this.monitor.health;
  }

  onHealth(listener: (health: StoreHealth) => void): () => void {
    return this.monitor.subscribe(listener);
  }

  async rows<R extends object = Row>(text: string, params: Params = []): Promise<R[]> {
    this.usable();
    try {
      return (await this.pool.query<R & pg.QueryResultRow>(text, [...params])).rows;
    } catch (error) {
      throw this.failure(error, writes(text));
    }
  }

  async arrays(text: string, params: Params = []): Promise<unknown[][]> {
    this.usable();
    try {
      return (await this.pool.query<unknown[]>({ text, values: [...params], rowMode: 'array' })).rows;
    } catch (error) {
      throw this.failure(error, writes(text));
    }
  }

  async run(text: string, params: Params = []): Promise<number> {
    this.usable();
    try {
      return (await this.pool.query(text, [...params])).rowCount ?? 0;
    } catch (error) {
      throw this.failure(error, writes(text));
    }
  }

  /** `run` inside BEGIN … COMMIT on one client: all of it or none. */
  async transaction<T>(run: (sql: Sql) => Promise<T>): Promise<T> {
    const client = await this.checkOut();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await run(clientSql(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isUnreachable(error)) broken = error instanceof Error ? error : new Error(String(error));
      else {
        await client.query('ROLLBACK').catch((rollback: unknown) => {
          broken = rollback instanceof Error ? rollback : new Error(String(rollback));
        });
      }
      throw this.failure(error, true);
    } finally {
      // A client whose connection failed is destroyed, not handed to the next caller.
      client.release(broken);
    }
  }

  /** A client of its own, for work that needs one connection outside the transaction helper (migrations). */
  async checkOut(): Promise<pg.PoolClient> {
    this.usable();
    try {
      return await this.pool.connect();
    } catch (error) {
      throw this.failure(error, false);
    }
  }

  /** Turns a node-postgres failure into Skipper's; an unreachable database also turns the store down. */
  failure(error: unknown, write: boolean): SkipperError {
    if (error instanceof SkipperError) return error;
    if (isUnreachable(error)) {
      const reason = oneLine(error);
      this.monitor.failed(reason);
      return unavailableError(this.label, reason);
    }
    return statementError(error, { label: this.label, write });
  }

  /** Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.monitor.close();
    await this.pool.end().catch(() => undefined);
  }

  /** Fails at once when the store is closed or the database down: no call waits on a server that is not there. */
  private usable(): void {
    if (this.closed) throw new SkipperError('store_connection', `the store at ${this.label} is closed`);
    const health = this.monitor.health;
    if (health.state === 'down') throw unavailableError(this.label, health.error);
  }
}
