// The store on PostgreSQL (rule 21): the contract (contract.ts) over a pg.Pool, in PostgreSQL's own SQL, table by
// table (sessions.ts, messages.ts, records.ts, leases.ts, memory.ts, credentials.ts, requests.ts,
// counterfactuals.ts, fleets.ts), wired here with what SQLite's store does around them: the same cleaning before a
// write (credentials stripped from game URLs, `redact` over extra, messages, memory and requests), the group commit
// for transcripts (and, for a fleet's store, its records), and the database's health. `openPgStore` connects,
// migrates (migrate.ts) and reads the password list before it resolves; a database that cannot be reached then is a
// FatalError of one line that says what to check.
import type { Message } from '../../shared/index.js';
import { FatalError, SkipperError, type Logger } from '../../shared/index.js';
import type { Lease, LeaseHolder, LeaseTake, Store, StoreHealth } from '../contract.js';
import { cleanSessionInput, redactMessage, type Redactor } from '../redact.js';
import type { StoreOptions } from '../sqlite-store.js';
import type {
  AppendableMessage,
  CreateSessionInput,
  MessageRange,
  Session,
  SessionSummary,
  SnapshotInput,
  SnapshotRecord,
  TurnRecord,
  UpdateSessionInput,
  UsagePoint,
  UsageRecordInput,
  UsageTotals,
} from '../types.js';
import { PgConnection, type Sql } from './connection.js';
import { PgCounterfactuals } from './counterfactuals.js';
import { PgCredentials } from './credentials.js';
import { isUnreachable, oneLine } from './errors.js';
import { PgFleets } from './fleets.js';
import { PgGroupCommit, type GroupedWrite } from './group-commit.js';
import { PgLeases } from './leases.js';
import { parsePgUrl } from './location.js';
import { PgMemory } from './memory.js';
import { PgMessageLog } from './messages.js';
import { checkPgVersion, migratePg } from './migrate.js';
import * as records from './records.js';
import { PgRequestLog } from './requests.js';
import { PgSessions } from './sessions.js';

export interface PgStoreOptions extends Omit<StoreOptions, 'path'> {
  /** `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=NAME]`. */
  url: string;
  /** Ignored, as `quickCheck` and `walAutocheckpointPages` are (SQLite's): the URL says where the store is. */
  path?: string;
  /** pg_stat_activity's application_name for this store's connections (default `skipper`). */
  applicationName?: string;
  /** Connections the pool may open (default 10). */
  poolSize?: number;
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  /** The probe's backoff while the database is down (default 0.5 s doubling to 10 s). */
  firstProbeMs?: number;
  maxProbeMs?: number;
  /** How often the password list is read again for other processes' writes (default 5 s). */
  passwordRefreshMs?: number;
}

/** Connects, migrates (or, read-only, checks the version) and reads the password list; rejects with a FatalError. */
export async function openPgStore(options: PgStoreOptions): Promise<Store> {
  const location = parsePgUrl(options.url);
  const connection = new PgConnection({
    url: location.url,
    schema: location.schema,
    label: location.label,
    applicationName: options.applicationName,
    poolSize: options.poolSize,
    readonly: options.readonly,
    logger: options.logger,
    connectTimeoutMs: options.connectTimeoutMs,
    queryTimeoutMs: options.queryTimeoutMs,
    firstProbeMs: options.firstProbeMs,
    maxProbeMs: options.maxProbeMs,
  });
  try {
    await prepare(connection, options);
    const store = new PgStore(connection, options);
    await store.credentials.refresh();
    store.credentials.startRefreshing(options.passwordRefreshMs);
    return store;
  } catch (error) {
    await connection.close();
    throw openError(location.label, error);
  }
}

/** The schema brought up to date (or checked, read-only) on a client of its own. */
async function prepare(connection: PgConnection, options: PgStoreOptions): Promise<void> {
  const client = await connection.pool.connect();
  try {
    const where = { schema: connection.schema, label: connection.label };
    if (options.readonly) await checkPgVersion(client, where);
    else {
      const applied = await migratePg(client, where);
      if (applied.length > 0) options.logger?.info({ database: connection.label, applied }, 'store migrated');
    }
  } finally {
    client.release();
  }
}

function openError(label: string, error: unknown): FatalError {
  if (error instanceof FatalError) return error;
  if (isUnreachable(error) || (error instanceof SkipperError && error.code === 'store_unavailable')) {
    return new FatalError(
      'store_open',
      `cannot connect to PostgreSQL at ${label}: ${oneLine(error)}. Check the URL (--db, SKIPPER_DATABASE_URL), ` +
        'that the server runs, and that the user may log in.',
    );
  }
  return new FatalError('store_open', `cannot prepare ${label}: ${oneLine(error)}`);
}

export class PgStore implements Store {
  readonly backend = 'postgres' as const;
  readonly path: string;
  readonly memory: PgMemory;
  readonly credentials: PgCredentials;
  readonly requests: PgRequestLog;
  readonly counterfactuals: PgCounterfactuals;
  readonly fleets: PgFleets;
  private readonly group: PgGroupCommit;
  private readonly sessions: PgSessions;
  private readonly log: PgMessageLog;
  private readonly leaseTable: PgLeases;
  private readonly now: () => number;
  private readonly redact: Redactor | undefined;
  private readonly grouped: boolean;
  private readonly logger: Logger | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly db: PgConnection,
    options: PgStoreOptions,
  ) {
    this.path = db.label;
    this.now = options.now ?? Date.now;
    this.redact = options.redact;
    this.grouped = options.groupRecords === true;
    this.logger = options.logger;
    this.group = new PgGroupCommit(db);
    this.sessions = new PgSessions(db, this.now);
    this.log = new PgMessageLog(db, { group: this.group, now: this.now });
    this.leaseTable = new PgLeases(db, options.processExists ? { processExists: options.processExists } : {});
    this.memory = new PgMemory(db, {
      now: this.now,
      redact: options.redact,
      ...(this.grouped
        ? { group: { soon: (write) => this.later({ run: write }), flush: () => this.group.flush() } }
        : {}),
    });
    this.credentials = new PgCredentials(db, this.now);
    this.requests = new PgRequestLog(db, {
      now: this.now,
      redact: options.redact,
      onDeferredError: (error) => this.logger?.warn({ err: oneLine(error) }, 'request log write failed'),
      group: this.group,
    });
    this.counterfactuals = new PgCounterfactuals(db, this.now);
    this.fleets = new PgFleets(db, this.now);
  }

  // ---- sessions ----

  createSession(input: CreateSessionInput): Promise<Session> {
    return this.sessions.create(this.cleanSession(input));
  }
  getSession(nameOrId: string): Promise<Session> {
    return this.sessions.get(nameOrId);
  }
  findSession(nameOrId: string): Promise<Session | undefined> {
    return this.sessions.find(nameOrId);
  }
  updateSession(nameOrId: string, changes: UpdateSessionInput): Promise<Session> {
    return this.sessions.update(nameOrId, this.cleanSession(changes));
  }
  renameSession(nameOrId: string, newName: string): Promise<Session> {
    return this.sessions.rename(nameOrId, newName);
  }
  listSessions(): Promise<SessionSummary[]> {
    return this.sessions.list();
  }
  deleteSession(nameOrId: string): Promise<boolean> {
    return this.sessions.delete(nameOrId);
  }

  // ---- messages ----

  append(sessionId: string, message: AppendableMessage): Promise<Message> {
    return this.log.append(sessionId, this.cleanMessage(message));
  }
  appendMany(sessionId: string, messages: readonly AppendableMessage[]): Promise<Message[]> {
    return this.log.appendMany(
      sessionId,
      messages.map((message) => this.cleanMessage(message)),
    );
  }
  messages(sessionId: string, range?: MessageRange): Promise<Message[]> {
    return this.log.messages(sessionId, range);
  }
  iterateMessages(sessionId: string, range?: MessageRange): AsyncIterable<Message> {
    return this.log.iterate(sessionId, range);
  }
  messageCount(sessionId: string): Promise<number> {
    return this.log.count(sessionId);
  }
  lastTurn(sessionId: string): Promise<number> {
    return this.log.lastTurn(sessionId);
  }

  // ---- records ----

  recordUsage(input: UsageRecordInput): Promise<void> {
    const row = records.usageParams({ ...input, createdAt: input.createdAt ?? this.now() });
    // In a fleet's group commit, a tick's usage rows go in one INSERT.
    if (this.grouped) return this.later({ rows: { insert: records.insertUsage, rows: [row] } });
    return records.insertUsage(this.db, [row]);
  }
  async usageTotals(sessionId: string): Promise<UsageTotals> {
    await this.group.flush();
    return records.usageTotals(this.db, sessionId);
  }
  async usageSeries(sessionId: string, options: { sinceMs?: number } = {}): Promise<UsagePoint[]> {
    await this.group.flush();
    return records.usageSeries(this.db, { sessionId, sinceMs: options.sinceMs });
  }
  recordSnapshot(input: SnapshotInput): Promise<void> {
    return this.record((sql) => records.writeSnapshot(sql, { ...input, createdAt: input.createdAt ?? this.now() }));
  }
  async snapshots(sessionId: string, options: { last?: number } = {}): Promise<SnapshotRecord[]> {
    await this.group.flush();
    return records.snapshots(this.db, { sessionId, last: options.last });
  }
  recordTurn(input: TurnRecord): Promise<void> {
    return this.record((sql) => records.writeTurn(sql, input));
  }
  async turns(sessionId: string): Promise<TurnRecord[]> {
    await this.group.flush();
    return records.turns(this.db, sessionId);
  }

  // ---- leases ----

  takeLease(key: string, holder: LeaseHolder, options: { ttlMs: number }): Promise<LeaseTake> {
    return this.leaseTable.take({ key, holder, ttlMs: options.ttlMs });
  }
  renewLease(lease: Lease, options: { ttlMs: number }): Promise<Lease | undefined> {
    return this.leaseTable.renew(lease, options.ttlMs);
  }
  releaseLease(lease: Lease): Promise<boolean> {
    return this.leaseTable.release(lease);
  }
  lease(key: string): Promise<Lease | undefined> {
    return this.leaseTable.get(key);
  }
  leases(prefix: string): Promise<Lease[]> {
    return this.leaseTable.list(prefix);
  }

  // ---- lifecycle ----

  async schemaVersion(): Promise<number> {
    const [row] = await this.db.rows<{ version: number }>('SELECT version FROM skipper_schema');
    return row?.version ?? 0;
  }
  async flush(): Promise<void> {
    await this.group.flush();
  }
  /** Reachability: ['ok'], or the one line that says why not. */
  async integrityCheck(): Promise<string[]> {
    try {
      await this.db.rows('SELECT 1 FROM skipper_schema');
      return ['ok'];
    } catch (error) {
      return [oneLine(error)];
    }
  }
  health(): StoreHealth {
    return this.db.health;
  }
  onHealth(listener: (health: StoreHealth) => void): () => void {
    return this.db.onHealth(listener);
  }
  /** Writes what waits (what cannot be written is its callers' to hear), then ends the pool. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.credentials.stopRefreshing();
      await this.flush();
      await this.db.close();
    })();
    return this.closing;
  }

  // ---- cleaning and records ----

  private cleanMessage(message: AppendableMessage): AppendableMessage {
    return this.redact ? (redactMessage(message as Message, this.redact) as AppendableMessage) : message;
  }

  /** Credentials in URLs never reach the session row; known secrets in `extra` are redacted. */
  private cleanSession<T extends { game?: string; extra?: Record<string, unknown> }>(input: T): T {
    return cleanSessionInput(input, this.redact);
  }

  /** A usage, snapshot or turn row: in the group commit for a fleet's store, else written now. */
  private async record(write: (sql: Sql) => Promise<number>): Promise<void> {
    if (this.grouped) return this.later({ run: async (sql) => void (await write(sql)) });
    await write(this.db);
  }

  /** A write in the group commit; resolves once its batch is done. One that fails is logged, as SQLite's are: a
   * record serves reports, and nobody waits on it. */
  private later(write: Pick<GroupedWrite, 'run' | 'rows'>): Promise<void> {
    return new Promise((resolve) => {
      this.group.add({
        ...write,
        committed: resolve,
        failed: (error) => {
          this.logger?.warn({ err: oneLine(error) }, 'record write failed');
          resolve();
        },
      });
    });
  }
}
