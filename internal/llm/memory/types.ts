// The shapes captain memory works with. llm may not import store, so the entry and the port are declared here,
// structurally identical to internal/store's MemoryEntry / MemoryStore (the SQLite store satisfies MemoryPort).
import type { LocalTool } from '../dispatch.js';

export type MemoryKind = 'note' | 'episode' | 'lesson' | 'handoff';
export type MemoryOutcome = 'success' | 'failure';

export interface MemoryRecord {
  id: number;
  captain: string;
  kind: MemoryKind;
  text: string;
  tags: string[];
  outcome: MemoryOutcome | null;
  evidence: unknown;
  uses: number;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface MemoryRecordInput {
  captain: string;
  kind: MemoryKind;
  text: string;
  tags?: string[];
  outcome?: MemoryOutcome | null;
  evidence?: unknown;
  createdAt?: number;
}

/** What memory needs from the store: `store.memory` fits as is. */
export interface MemoryPort {
  add(input: MemoryRecordInput): MemoryRecord;
  /** Oldest first. */
  list(captain: string, options?: { kind?: MemoryKind; limit?: number }): MemoryRecord[];
  get(id: number): MemoryRecord | undefined;
  remove(id: number): boolean;
  touch(ids: readonly number[]): void;
}

export interface MemoryContext {
  goal?: string;
  /** The last user line, the last answer, recent tool results: anything that says what the captain is doing. */
  recentText?: string;
}

export interface TurnFacts {
  goal?: string;
  /** The turn's outcome: answered, round-limit, loop-detected, cancelled, failed. */
  outcome: string;
  creditsBefore?: number;
  creditsAfter?: number;
  netWorthBefore?: number;
  netWorthAfter?: number;
  /** Tool names of successful mutations, in order. */
  actions: string[];
  errors: Array<{ tool: string; code: string; args?: string }>;
}

export type HandoffResult = { ok: true; id: number } | { ok: false; reason: string };

export interface RecordTurnResult {
  /** The episode written, or undefined when the turn did nothing worth keeping. */
  episodeId?: number;
  /** Lessons added or refreshed by this turn. */
  lessons: Array<{ id: number; key: string; count: number; created: boolean }>;
}

export interface BlockReport {
  text: string;
  tokens: number;
  ids: number[];
}

export interface CaptainMemory {
  readonly captain: string;
  readonly budgetTokens: number;
  /** remember / recall / forget, answered by Skipper and never sent to the game. */
  localTools(): LocalTool[];
  /** The labelled block for the system prompt ('' when there is nothing to say); marks the entries used. */
  block(context: MemoryContext): string;
  /** The same block without marking anything used (for /memory), with its size and entry ids. */
  preview(context: MemoryContext): BlockReport;
  recordTurn(turn: TurnFacts): RecordTurnResult;
  writeHandoff(text: string): HandoffResult;
  /** Everything this captain remembers, oldest first (from the cache). */
  entries(): MemoryRecord[];
  /** Drops the cache so the next read comes from the store (after writes made elsewhere). */
  refresh(): void;
}
