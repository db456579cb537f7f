// The SQLite engine: one connection shared by the session table, the transcripts, the per-turn records, memory and
// credentials; this class is the synchronous face over them and owns the connection's life. better-sqlite3 is
// synchronous, so a write has reached the WAL when the call returns (rule 13). The store the rest of Skipper holds
// is the asynchronous contract over it (sqlite/store.ts).
import type Database from 'better-sqlite3';
import type { Logger, Message } from '../shared/index.js';
import { SqliteCounterfactualStore } from './counterfactual-store.js';
import { SqliteFleetStore } from './fleet-store.js';
import { SqliteCredentialStore } from './credentials.js';
import { SqliteMemoryStore } from './memory-store.js';
import { MessageLog } from './message-log.js';
import { GroupCommit } from './group-commit.js';
import { openDatabase } from './open.js';
import { redactPgUrl } from './pg/location.js';
import { TurnRecords } from './records.js';
import { SqliteRequestLog } from './request-log.js';
import { SessionTable } from './session-table.js';
import type {
  AppendableMessage,
  CreateSessionInput,
  MessageRange,
  Session,
  SessionSummary,
  SnapshotInput,
  SnapshotRecord,
  SyncStore,
  TurnRecord,
  UpdateSessionInput,
  UsageRecordInput,
  UsagePoint,
  UsageTotals,
} from './types.js';
import { cleanSessionInput, redactMessage, type Redactor } from './redact.js';
import { guardedWrite } from './write-guard.js';

export interface StoreOptions {
  /** A file path, ':memory:', or (for openStore) a postgres:// URL: the PostgreSQL store, internal/store/pg. */
  path: string;
  logger?: Logger;
  readonly?: boolean;
  /** Clock, for tests. */
  now?: () => number;
  /** PRAGMA quick_check on open; default: for files under 256 MB. */
  quickCheck?: boolean;
  /** Whether a pid exists on this host (lease takeover), for tests. */
  processExists?: (pid: number) => boolean;
  /**
   * Rule 14 at write: every message, request-log entry and session row passes through it before it is stored, so
   * what is on disk is clean whatever the environment of a later export or replay.
   */
  redact?: Redactor;
  /**
   * A fleet's store: usage rows, snapshots, turn rows and memory's marks of use join the group commit of
   * appendCommitted (written with the messages appended while the event loop turns, in one transaction after it)
   * instead of one commit each. A read of them commits what waits first. One that fails is logged as a warning, as a
   * failed request-log write is.
   */
  groupRecords?: boolean;
  /**
   * SQLite: copy the WAL back into the database once it holds this many pages (SQLite's default is 1,000). A fleet
   * writes a few pages a second per captain: a longer WAL copies each busy page back once for many commits.
   */
  walAutocheckpointPages?: number;
}

export class SqliteEngine implements SyncStore {
  readonly path: string;
  readonly memory: SqliteMemoryStore;
  readonly credentials: SqliteCredentialStore;
  readonly requests: SqliteRequestLog;
  readonly counterfactuals: SqliteCounterfactualStore;
  readonly fleets: SqliteFleetStore;
  private readonly db: Database.Database;
  private readonly group: GroupCommit;
  private readonly groupRecords: boolean;
  private readonly onRecordError: (error: unknown) => void;
  private readonly sessions: SessionTable;
  private readonly log: MessageLog;
  private readonly records: TurnRecords;
  private closed = false;
  private readonly redact: Redactor | undefined;

  constructor(options: StoreOptions) {
    // A database URL's password never reaches a message or a log line through `path`.
    this.path = redactPgUrl(options.path);
    this.redact = options.redact;
    const now = options.now ?? Date.now;
    this.db = openDatabase({
      path: options.path,
      logger: options.logger,
      readonly: options.readonly,
      quickCheck: options.quickCheck,
    });
    if (options.walAutocheckpointPages !== undefined && !options.readonly)
      this.db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.floor(options.walAutocheckpointPages))}`);
    this.group = new GroupCommit(this.db, this.path);
    this.groupRecords = options.groupRecords === true;
    this.onRecordError = (error) =>
      options.logger?.warn({ err: error instanceof Error ? error.message : String(error) }, 'record write failed');
    this.memory = new SqliteMemoryStore(
      this.db,
      now,
      options.redact,
      this.groupRecords ? { soon: (write) => this.later('', write), commit: () => this.group.commit() } : undefined,
    );
    this.credentials = new SqliteCredentialStore(this.db, now);
    this.sessions = new SessionTable(this.db, now);
    this.log = new MessageLog(this.db, { path: this.path, now, group: this.group });
    this.records = new TurnRecords(this.db, now);
    this.requests = new SqliteRequestLog(this.db, {
      path: this.path,
      now,
      redact: options.redact,
      onDeferredError: (error) =>
        options.logger?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'request log write failed',
        ),
    });
    this.counterfactuals = new SqliteCounterfactualStore(this.db, { path: this.path, now });
    this.fleets = new SqliteFleetStore(this.db, { path: this.path, now });
  }

  private cleanMessage(message: AppendableMessage): AppendableMessage {
    return this.redact ? (redactMessage(message as Message, this.redact) as AppendableMessage) : message;
  }

  /** Credentials in URLs never reach the session row; known secrets in `extra` are redacted. */
  private cleanSession<T extends { game?: string; extra?: Record<string, unknown> }>(input: T): T {
    return cleanSessionInput(input, this.redact);
  }

  // ---- sessions ----

  createSession(input: CreateSessionInput): Session {
    return this.sessions.createSession(this.cleanSession(input));
  }

  findSession(nameOrId: string): Session | undefined {
    return this.sessions.findSession(nameOrId);
  }

  getSession(nameOrId: string): Session {
    return this.sessions.getSession(nameOrId);
  }

  updateSession(nameOrId: string, changes: UpdateSessionInput): Session {
    return this.sessions.updateSession(nameOrId, this.cleanSession(changes));
  }

  renameSession(nameOrId: string, newName: string): Session {
    return this.sessions.renameSession(nameOrId, newName);
  }

  listSessions(): SessionSummary[] {
    return this.sessions.listSessions();
  }

  deleteSession(nameOrId: string): boolean {
    return this.sessions.deleteSession(nameOrId);
  }

  // ---- messages ----

  append(sessionId: string, message: AppendableMessage): Message {
    return this.log.append(sessionId, this.cleanMessage(message));
  }

  appendCommitted(sessionId: string, message: AppendableMessage): Promise<Message> {
    return this.log.appendCommitted(sessionId, this.cleanMessage(message));
  }

  appendMany(sessionId: string, messages: readonly AppendableMessage[]): Message[] {
    return this.log.appendMany(
      sessionId,
      messages.map((message) => this.cleanMessage(message)),
    );
  }

  messages(sessionId: string, range: MessageRange = {}): Message[] {
    return this.log.messages(sessionId, range);
  }

  iterateMessages(sessionId: string, range: MessageRange = {}): Generator<Message, void, undefined> {
    return this.log.iterateMessages(sessionId, range);
  }

  messageCount(sessionId: string): number {
    return this.log.messageCount(sessionId);
  }

  lastTurn(sessionId: string): number {
    return this.log.lastTurn(sessionId);
  }

  // ---- records ----

  recordUsage(input: UsageRecordInput): void {
    this.record(input.sessionId, () => this.records.recordUsage(input));
  }

  usageTotals(sessionId: string): UsageTotals {
    this.group.commit();
    return this.records.usageTotals(sessionId);
  }

  usageSeries(sessionId: string, options: { sinceMs?: number } = {}): UsagePoint[] {
    this.group.commit();
    return this.records.usageSeries(sessionId, options.sinceMs);
  }

  recordSnapshot(input: SnapshotInput): void {
    this.record(input.sessionId, () => this.records.recordSnapshot(input));
  }

  snapshots(sessionId: string, options: { last?: number } = {}): SnapshotRecord[] {
    this.group.commit();
    return this.records.snapshots(sessionId, options.last);
  }

  recordTurn(input: TurnRecord): void {
    this.record(input.sessionId, () => this.records.recordTurn(input));
  }

  turns(sessionId: string): TurnRecord[] {
    this.group.commit();
    return this.records.turns(sessionId);
  }

  /** A usage, snapshot or turn row: in the group commit for a fleet's store, else written (and committed) now. */
  private record(sessionId: string, write: () => unknown): void {
    if (this.groupRecords) this.later(sessionId, write);
    else this.write(sessionId, write);
  }

  /** A record in the group commit; one that fails is logged (nobody waits on it). */
  private later(sessionId: string, write: () => unknown): void {
    this.group.add(sessionId, write, { failed: this.onRecordError });
  }

  // ---- lifecycle ----

  /** The connection, for the tables the async store keeps beside these (leases). */
  get database(): Database.Database {
    return this.db;
  }

  /** PRAGMA user_version: how many of the one migration list this database has had. */
  schemaVersion(): number {
    return Number(this.db.pragma('user_version', { simple: true }));
  }

  /** Commits what the group commit and the request log hold. */
  flush(): void {
    this.group.commit();
    this.requests.flush();
  }

  integrityCheck(): string[] {
    return (this.db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
  }

  close(): void {
    if (this.closed) return;
    // Writes still queued for their commit are written before the database closes (callers wait on messages).
    this.group.commit();
    try {
      this.requests.flush();
    } catch {
      // The request log serves later replays; closing (and what the transcript holds) is what matters here.
    }
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

  private write(sessionId: string, run: () => unknown): void {
    guardedWrite({ path: this.path, sessionId, run });
  }
}
