// The store's contract: what every backend offers the rest of Skipper, asynchronously, table by table (rule 21).
// SQLite (better-sqlite3 underneath, in this process) and PostgreSQL (a pg.Pool, its own SQL) each implement it
// natively; callers await it and never know which one they hold. Durability keeps its meaning: a message is stored
// when its `append` resolves (rule 13); appends that arrive while the event loop turns may be committed together (the
// group commit), each promise resolving once its transaction has.
//
// A backend that can go away (PostgreSQL restarting, a connection cut): a call that cannot reach the database rejects
// with a SkipperError of code `store_unavailable` whose message names the database without its password and writes
// nothing; the store says so once through `onHealth`, reconnects with backoff by itself, and says so again when it is
// back. Callers stop acting while it is down (a captain whose move cannot be written does not move).
import type { MemoryEntry, MemoryInput, MemoryKind, Message } from '../shared/index.js';
import type {
  CounterfactualDecision,
  CounterfactualRun,
  CounterfactualStatus,
  CounterfactualSummary,
  RequestRecord,
  RequestRecordInput,
  StoredRequest,
} from './request-types.js';
import type {
  FleetCaptainRecord,
  FleetCaptainUpdate,
  FleetCommand,
  FleetEvent,
  FleetEventKind,
  FleetOrder,
  FleetRecord,
  KnowledgeRecord,
} from './fleet-types.js';
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
} from './types.js';

export type StoreBackend = 'sqlite' | 'postgres';

/** The database reachable or not, as the store last found it. */
export type StoreHealth =
  | { state: 'up' }
  /** `since`: epoch ms of the first failure; `error`: one line, no password. */
  | { state: 'down'; since: number; error: string };

/** The `sessions` table. */
export interface SessionMethods {
  createSession(input: CreateSessionInput): Promise<Session>;
  /** Rejects with UsageError naming `skipper sessions` when there is no such session. */
  getSession(nameOrId: string): Promise<Session>;
  findSession(nameOrId: string): Promise<Session | undefined>;
  updateSession(nameOrId: string, changes: UpdateSessionInput): Promise<Session>;
  renameSession(nameOrId: string, newName: string): Promise<Session>;
  /** Most recently active first. */
  listSessions(): Promise<SessionSummary[]>;
  /** Removes the session and everything recorded for it; false when it did not exist. */
  deleteSession(nameOrId: string): Promise<boolean>;
}

/** The `messages` table: transcripts. */
export interface MessageMethods {
  /** Durable when the promise resolves (rule 13); appends made while the event loop turns may share one commit. */
  append(sessionId: string, message: AppendableMessage): Promise<Message>;
  /** All or nothing, in one transaction. */
  appendMany(sessionId: string, messages: readonly AppendableMessage[]): Promise<Message[]>;
  messages(sessionId: string, range?: MessageRange): Promise<Message[]>;
  /** Streams messages in order, a page at a time; messages appended meanwhile are included when they fall after the
   * current page. */
  iterateMessages(sessionId: string, range?: MessageRange): AsyncIterable<Message>;
  messageCount(sessionId: string): Promise<number>;
  /** Turn number of the last message (0 when empty). */
  lastTurn(sessionId: string): Promise<number>;
}

/** The `usage`, `snapshots` and `turns` tables: what each model round cost, the state after each turn, each turn. */
export interface RecordMethods {
  recordUsage(input: UsageRecordInput): Promise<void>;
  usageTotals(sessionId: string): Promise<UsageTotals>;
  /** Every recorded model round of the session, oldest first (rows since `sinceMs` when given). */
  usageSeries(sessionId: string, options?: { sinceMs?: number }): Promise<UsagePoint[]>;
  /** One per turn: recording the same turn again replaces it. */
  recordSnapshot(input: SnapshotInput): Promise<void>;
  /** Oldest first; `last`: only the snapshots of the last n turns. */
  snapshots(sessionId: string, options?: { last?: number }): Promise<SnapshotRecord[]>;
  /** One per turn: recording the same turn again replaces it. */
  recordTurn(input: TurnRecord): Promise<void>;
  turns(sessionId: string): Promise<TurnRecord[]>;
}

/** Who holds, or wants, a lease: a process on a host, and a random token per holder (two handles of one process, a
 * reused pid). */
export interface LeaseHolder {
  pid: number;
  host: string;
  token: string;
}

/**
 * A lease: one writer for a key (`session:<id>`, `account:<host>/<user>`, `captain:<fleet>/<name>`). It has a
 * deadline its holder moves on by renewing; past it anyone may take it over. Each take raises the fence: a holder that
 * slept through its deadline finds its lease gone at its next renewal and must stop before it acts again.
 */
export interface Lease extends LeaseHolder {
  key: string;
  /** Raised by every take by another holder: this holder's proof it still holds the lease. */
  fence: number;
  takenAt: number;
  renewedAt: number;
  /** Epoch ms (the database's clock) after which the lease may be taken over unless renewed. */
  expiresAt: number;
}

export type LeaseTake = { taken: true; lease: Lease } | { taken: false; holder: Lease };

/** The `leases` table. */
export interface LeaseMethods {
  /**
   * Takes `key` for `holder` for `ttlMs`: when free, already this holder's (the same token: the fence stays), past
   * its deadline, or held on this host by a pid that no longer exists; refused with the holder otherwise. Atomic: of
   * two takers at once, one wins.
   */
  takeLease(key: string, holder: LeaseHolder, options: { ttlMs: number }): Promise<LeaseTake>;
  /** Moves the deadline on; resolves to the renewed lease, or undefined when it is no longer this one (taken over:
   * its fence was raised, or released). */
  renewLease(lease: Lease, options: { ttlMs: number }): Promise<Lease | undefined>;
  /** Gives the lease up if it is still this one; false otherwise. */
  releaseLease(lease: Lease): Promise<boolean>;
  /** The lease on `key` now, expired or not; undefined when none was taken or it was released. */
  lease(key: string): Promise<Lease | undefined>;
  /** The leases whose key starts with `prefix` (a fleet's captains: `captain:<fleet>/`). */
  leases(prefix: string): Promise<Lease[]>;
}

/** The `memory` table: what captains remember across sessions. */
export interface MemoryTable {
  add(input: MemoryInput): Promise<MemoryEntry>;
  /** Oldest first. */
  list(captain: string, options?: { kind?: MemoryKind; limit?: number }): Promise<MemoryEntry[]>;
  get(id: number): Promise<MemoryEntry | undefined>;
  /** True when an entry was removed. */
  remove(id: number): Promise<boolean>;
  /** Removes every entry of a captain; returns how many. */
  clear(captain: string): Promise<number>;
  /** Marks entries as used now: uses + 1, last_used_at = now. */
  touch(ids: readonly number[]): Promise<void>;
}

/** The `credentials` table. The secret guard reads every stored password on each game call: `passwordList()` is the
 * list kept in memory, refreshed by this store's own writes at once and by other processes' on `refresh()`. */
export interface CredentialTable {
  get(gameUrl: string, username: string): Promise<{ username: string; password: string } | undefined>;
  /** The most recently used account for a game, if any. */
  latest(gameUrl: string): Promise<{ username: string; password: string } | undefined>;
  put(gameUrl: string, username: string, password: string): Promise<void>;
  remove(gameUrl: string, username: string): Promise<boolean>;
  /** Every stored password as last read: the same array while none was added or removed. Never blocks. */
  passwordList(): readonly string[];
  /** Reads the list again, for other processes' writes. */
  refresh(): Promise<void>;
}

/** The `requests` table (with its content-addressed pieces): every model request as sent. */
export interface RequestLogTable {
  /** Stores one request (its new pieces once); resolves to its id. Requests handed in while the event loop turns
   * may be written together. */
  record(input: RequestRecordInput): Promise<number>;
  /** Stores one request soon, with the others handed in while the event loop turns, in one transaction. A process
   * killed meanwhile loses them (the transcript does not: the log serves later replays); a failure is logged. */
  recordSoon(input: RequestRecordInput): void;
  /** Oldest first. */
  list(sessionId: string, range?: MessageRange): Promise<RequestRecord[]>;
  count(sessionId: string): Promise<number>;
  /** Rejects when there is no such request. */
  load(id: number): Promise<StoredRequest>;
}

/** The `counterfactuals` tables: replays of a session asked of another model. */
export interface CounterfactualTable {
  create(input: {
    sessionId: string;
    model: string;
    prompt?: string;
    fromTurn?: number;
    toTurn?: number;
  }): Promise<CounterfactualRun>;
  addDecision(counterfactualId: number, decision: CounterfactualDecision): Promise<void>;
  finish(counterfactualId: number, status: Exclude<CounterfactualStatus, 'running'>): Promise<void>;
  /** Newest first. */
  list(): Promise<CounterfactualSummary[]>;
  get(nameOrId: string | number): Promise<CounterfactualSummary | undefined>;
  decisions(counterfactualId: number): Promise<CounterfactualDecision[]>;
}

/** The `fleets` tables: fleets, their captains' rows, orders, events and shared knowledge. */
export interface FleetTable {
  /** Creates the fleet row or marks it running again under this process. */
  startFleet(input: { name: string; file: string; pid: number; host: string }): Promise<FleetRecord>;
  /** Marks it stopped (a clean end). */
  stopFleet(name: string): Promise<void>;
  setHealth(name: string, health: Record<string, unknown>): Promise<void>;
  getFleet(name: string): Promise<FleetRecord | undefined>;
  listFleets(): Promise<FleetRecord[]>;

  /** Inserts the captain's row or updates the fields given; resolves to the row. */
  upsertCaptain(
    fleet: string,
    name: string,
    fields: FleetCaptainUpdate & { sessionName?: string },
  ): Promise<FleetCaptainRecord>;
  /** The same write, without reading the row back (a running captain's status, about once a second). */
  writeCaptain(fleet: string, name: string, fields: FleetCaptainUpdate & { sessionName?: string }): Promise<void>;
  captains(fleet: string): Promise<FleetCaptainRecord[]>;
  captain(fleet: string, name: string): Promise<FleetCaptainRecord | undefined>;

  /** An order for a running fleet (or the next run of it). */
  addOrder(input: { fleet: string; captain: string; command: FleetCommand; text?: string }): Promise<FleetOrder>;
  /** The orders not yet taken, oldest first, marked taken in the same transaction. */
  takeOrders(fleet: string): Promise<FleetOrder[]>;

  addEvent(input: {
    fleet: string;
    captain?: string;
    kind: FleetEventKind;
    text: string;
    data?: Record<string, unknown>;
  }): Promise<FleetEvent>;
  /** Events after `afterSeq` (default 0), oldest first, at most `limit` (default 500). */
  events(fleet: string, options?: { afterSeq?: number; captain?: string; limit?: number }): Promise<FleetEvent[]>;

  putKnowledge(input: {
    fleet: string;
    kind: string;
    key: string;
    value: unknown;
    captain: string;
    at?: number;
  }): Promise<void>;
  knowledge(fleet: string, kind?: string): Promise<KnowledgeRecord[]>;

  /** Model cost (USD) a session recorded since `sinceMs` (epoch ms): a captain's spend today after a restart. */
  sessionCostSince(sessionName: string, sinceMs: number): Promise<number>;
}

/** The store: one handle on one database. */
export interface Store extends SessionMethods, MessageMethods, RecordMethods, LeaseMethods {
  readonly backend: StoreBackend;
  /** Where the data is: a file path, ':memory:', or a database URL without its password. */
  readonly path: string;
  readonly memory: MemoryTable;
  readonly credentials: CredentialTable;
  readonly requests: RequestLogTable;
  readonly counterfactuals: CounterfactualTable;
  readonly fleets: FleetTable;
  /** The schema version the database is at (the one migration list's numbering, the same on every backend). */
  schemaVersion(): Promise<number>;
  /** Resolves once everything handed to the store so far is committed. */
  flush(): Promise<void>;
  /** SQLite's integrity_check, or PostgreSQL's reachability: ['ok'] when sound. */
  integrityCheck(): Promise<string[]>;
  health(): StoreHealth;
  /** Told when the database goes down and when it is back; returns the unsubscribe. */
  onHealth(listener: (health: StoreHealth) => void): () => void;
  /** Commits what waits and closes. Idempotent. */
  close(): Promise<void>;
}
