// The store's public shapes: what a session, a turn, a usage row, a snapshot and a memory entry look like to the rest
// of Skipper, and the Store interface the SQLite adapter implements.
import type { MemoryEntry, MemoryInput, MemoryKind, Message, NewMessage, TurnOutcome, Usage } from '../shared/index.js';
import type { CounterfactualStore, RequestLogStore } from './request-types.js';
import type { FleetStore } from './fleet-types.js';

export type SessionStatus = 'active' | 'ended';

export interface Session {
  /** Made by code (rule 7), a UUID. */
  id: string;
  /** Unique, human-friendly; generated (`2026-11-21-amber-falcon`) when not given. */
  name: string;
  /** Game label or URL ("embedded", "https://game.spacemolt.com/mcp"…). */
  game: string;
  model: string;
  username: string | null;
  goal: string | null;
  status: SessionStatus;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /** Free-form settings the CLI wants back on resume (JSON object). */
  extra: Record<string, unknown>;
}

export interface CreateSessionInput {
  /** A UUID chosen beforehand (a draft session written on its first turn); made here when absent. */
  id?: string;
  name?: string;
  game: string;
  model: string;
  username?: string;
  goal?: string;
  extra?: Record<string, unknown>;
}

export interface UpdateSessionInput {
  model?: string;
  username?: string | null;
  goal?: string | null;
  status?: SessionStatus;
  extra?: Record<string, unknown>;
}

/** One row of `skipper sessions`. */
export interface SessionSummary {
  session: Session;
  /** Highest turn number seen in the transcript (0 when empty). */
  turns: number;
  messages: number;
  /** Epoch ms of the last message, or the session's own updatedAt when later. */
  lastActiveAt: number;
  /** Credits of the last snapshot minus the first one; null without snapshots. */
  creditsDelta: number | null;
  /** Prompt + completion tokens over all model calls. */
  tokens: number;
  costUsd: number;
}

/** A message to append: id and createdAt are made here when absent (rule 7). */
export type AppendableMessage = NewMessage & { id?: string; createdAt?: number };

export interface MessageRange {
  /** First turn included. */
  fromTurn?: number;
  /** Last turn included. */
  toTurn?: number;
}

export interface UsageRecordInput {
  sessionId: string;
  turn?: number;
  round?: number;
  model: string;
  usage: Usage;
  latencyMs?: number;
  createdAt?: number;
}

/** One model round's cost, for plots of cost over time. */
export interface UsagePoint {
  turn: number | null;
  round: number | null;
  model: string;
  costUsd: number;
  createdAt: number;
}

export interface UsageTotals extends Required<Omit<Usage, 'priced'>> {
  calls: number;
  latencyMs: number;
}

/** The game state at the end of a turn, for reports. */
export interface GameSnapshot {
  tick: number;
  credits: number;
  netWorth: number;
  fuel: number;
  maxFuel: number;
  cargoUsed: number;
  cargoCapacity: number;
  hull: number;
  maxHull: number;
  systemId: string | null;
  poiId: string | null;
  docked: boolean;
}

export interface SnapshotRecord extends GameSnapshot {
  sessionId: string;
  turn: number;
  createdAt: number;
}

export type SnapshotInput = GameSnapshot & { sessionId: string; turn: number; createdAt?: number };

export type { TurnOutcome };
export type TurnInputKind = 'user' | 'autoplay' | 'resume' | 'handoff';

export interface TurnRecord {
  sessionId: string;
  turn: number;
  outcome: TurnOutcome;
  rounds: number;
  toolCalls: number;
  startedAt: number;
  endedAt: number;
  inputKind: TurnInputKind;
}

export type { MemoryEntry, MemoryInput, MemoryKind, MemoryOutcome } from '../shared/index.js';

export interface MemoryStore {
  add(input: MemoryInput): MemoryEntry;
  /** Oldest first. */
  list(captain: string, options?: { kind?: MemoryKind; limit?: number }): MemoryEntry[];
  get(id: number): MemoryEntry | undefined;
  /** True when an entry was removed. */
  remove(id: number): boolean;
  /** Removes every entry of a captain; returns how many. */
  clear(captain: string): number;
  /** Marks entries as used now: uses + 1, last_used_at = now. */
  touch(ids: readonly number[]): void;
}

export interface SqliteCredentials {
  get(gameUrl: string, username: string): { username: string; password: string } | undefined;
  latest(gameUrl: string): { username: string; password: string } | undefined;
  put(gameUrl: string, username: string, password: string): void;
  /** Every stored password (for redaction of exports and logs): a copy of its own. */
  allPasswords(): string[];
  /** The same list, read-only: the very same array while no password was added or removed (by any connection). */
  passwordList(): readonly string[];
  remove(gameUrl: string, username: string): boolean;
}

/** The SQLite engine's synchronous face (sqlite-store.ts), under the asynchronous Store of contract.ts. */
export interface SyncStore {
  /** The database file, or ':memory:'. */
  readonly path: string;
  readonly memory: MemoryStore;
  readonly credentials: SqliteCredentials;
  /** Every model request as sent (content-addressed), for counterfactual replay. */
  readonly requests: RequestLogStore;
  /** Counterfactual replays, stored apart from the sessions they replay. */
  readonly counterfactuals: CounterfactualStore;
  /** Fleets: their captains, orders, events and shared knowledge. */
  readonly fleets: FleetStore;

  createSession(input: CreateSessionInput): Session;
  /** Throws UsageError naming `skipper sessions` when there is no such session. */
  getSession(nameOrId: string): Session;
  findSession(nameOrId: string): Session | undefined;
  updateSession(nameOrId: string, changes: UpdateSessionInput): Session;
  renameSession(nameOrId: string, newName: string): Session;
  /** Most recently active first. */
  listSessions(): SessionSummary[];
  /** Removes the session and everything recorded for it; false when it did not exist. */
  deleteSession(nameOrId: string): boolean;

  /** One INSERT in autocommit: durable when this returns (rule 13). Returns the stored message. */
  append(sessionId: string, message: AppendableMessage): Message;
  /** Durable when the promise resolves (rule 13): committed with the other messages appended meanwhile, in one
   * transaction. Rejects with the error append would throw. */
  appendCommitted(sessionId: string, message: AppendableMessage): Promise<Message>;
  /** All or nothing, in one transaction. */
  appendMany(sessionId: string, messages: readonly AppendableMessage[]): Message[];
  messages(sessionId: string, range?: MessageRange): Message[];
  /**
   * Streams messages in order without loading them all (pages of 1000). Other store calls are fine meanwhile;
   * messages appended to the session during the iteration are included when they fall after the current page.
   */
  iterateMessages(sessionId: string, range?: MessageRange): Generator<Message, void, undefined>;
  messageCount(sessionId: string): number;
  /** Turn number of the last message (0 when empty). */
  lastTurn(sessionId: string): number;

  recordUsage(input: UsageRecordInput): void;
  usageTotals(sessionId: string): UsageTotals;
  /** Every recorded model round of the session, oldest first (rows since `sinceMs` when given). */
  usageSeries(sessionId: string, options?: { sinceMs?: number }): UsagePoint[];
  /** One per turn: recording the same turn again replaces it. */
  recordSnapshot(input: SnapshotInput): void;
  /** Oldest first; `last`: only the snapshots of the last n turns. */
  snapshots(sessionId: string, options?: { last?: number }): SnapshotRecord[];
  /** One per turn: recording the same turn again replaces it. */
  recordTurn(input: TurnRecord): void;
  turns(sessionId: string): TurnRecord[];

  /** `PRAGMA integrity_check`: ['ok'] when sound. */
  integrityCheck(): string[];
  /** Checkpoints the WAL and closes. Idempotent. */
  close(): void;
}
