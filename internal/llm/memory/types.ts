// The shapes captain memory works with. llm may not import store: the row shape lives in internal/shared and the
// port below is what the store's MemoryStore satisfies.
import type { MemoryEntry, MemoryInput, MemoryKind } from '../../shared/index.js';
import type { LocalTool } from '../dispatch.js';

export type { MemoryKind, MemoryOutcome } from '../../shared/index.js';
/** A stored memory entry (the shared row shape). */
export type MemoryRecord = MemoryEntry;
export type MemoryRecordInput = MemoryInput;

/** What memory needs from the store: `store.memory` (the contract's MemoryTable) fits as is. */
export interface MemoryPort {
  add(input: MemoryRecordInput): Promise<MemoryRecord>;
  /** Oldest first. */
  list(captain: string, options?: { kind?: MemoryKind; limit?: number }): Promise<MemoryRecord[]>;
  get(id: number): Promise<MemoryRecord | undefined>;
  /** True when an entry was removed. */
  remove(id: number): Promise<boolean>;
  /** Marks entries as used now. */
  touch(ids: readonly number[]): Promise<void>;
}

export interface MemoryContext {
  goal?: string;
  /** The last user line, the last answer, recent tool results: anything that says what the captain is doing. */
  recentText?: string;
}

export interface TurnFacts {
  goal?: string;
  /** The turn's outcome: answered, round_limit, loop_detected, cancelled, failed. */
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

/**
 * One captain's memory. Reads come from a cache filled by `load()`: the block, the preview and the entries are
 * synchronous and see nothing until it resolved. Writes go to the store one at a time, in order, and update the
 * cache; the marks of use (`block`, recall) are written in the background (`settled()` waits for them).
 */
export interface CaptainMemory {
  readonly captain: string;
  readonly budgetTokens: number;
  /** Reads this captain's entries into the cache, once: later and concurrent calls share that read. */
  load(): Promise<void>;
  /** remember / recall / forget, answered by Skipper and never sent to the game. */
  localTools(): LocalTool[];
  /** The labelled block for the system prompt ('' when there is nothing to say); marks the entries used (the store
   * is told in the background). Needs load(). */
  block(context: MemoryContext): string;
  /** The same block without marking anything used (for /memory), with its size and entry ids. Needs load(). */
  preview(context: MemoryContext): BlockReport;
  recordTurn(turn: TurnFacts): Promise<RecordTurnResult>;
  writeHandoff(text: string): Promise<HandoffResult>;
  /** Everything this captain remembers, oldest first (from the cache; needs load()). */
  entries(): MemoryRecord[];
  /** Reads the cache again from the store (after writes made elsewhere). */
  refresh(): Promise<void>;
  /** Resolves once every background write handed to the store so far has finished (failed ones included: they go
   * to `onWriteError`). */
  settled(): Promise<void>;
}
