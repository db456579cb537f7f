// The shapes of recorded model requests (what exactly each provider call was sent) and of counterfactual replays
// (another model asked the same questions later, stored apart from the session they replay).
import type { ContextRecipe, DecisionInputs, Message, ToolCall, ToolSpec, Usage } from '../shared/index.js';
import type { MessageRange } from './types.js';

/** How a request ended: a reply the turn kept, an empty reply (asked again), or an error (retried or fatal). */
export type RequestOutcome = 'reply' | 'empty' | 'error';

export interface RequestRecordInput {
  sessionId: string;
  turn: number;
  /** The round of the turn this request belongs to (a retry keeps its round). */
  round: number;
  /** 1 for the first request of the round, 2 after an empty reply or a context-length error… */
  attempt: number;
  /** The provider's id. */
  model: string;
  /** Each message exactly as sent, as JSON text. */
  messages: readonly string[];
  /** The tool list as sent, as JSON text. */
  tools: string;
  /** A ContextRecipe as JSON text, for a provider handed only the latest turns: `messages` is then the system message
   * alone, and the rest of the context is rebuilt from the transcript (the session layer's requestContexts). */
  recipe?: string;
  /** A DecisionInputs as JSON text: what a stateful captain's reply depended on besides the request. */
  inputs?: string;
  outcome: RequestOutcome;
  createdAt?: number;
}

export interface RequestRecord {
  id: number;
  sessionId: string;
  turn: number;
  round: number;
  attempt: number;
  model: string;
  outcome: RequestOutcome;
  createdAt: number;
}

/** A request rebuilt from its pieces: the messages and tools the provider was given. */
export interface StoredRequest extends RequestRecord {
  /** With a recipe, only the system message: the rest is rebuilt from the transcript (requestContexts). */
  messages: Message[];
  tools: ToolSpec[];
  recipe?: ContextRecipe;
  /** What the stateful captain's reply depended on besides the request (absent in requests stored before it was kept). */
  inputs?: DecisionInputs;
}

export interface RequestLogStore {
  /** Stores one request (its new pieces once); returns its id. */
  record(input: RequestRecordInput): number;
  /**
   * Stores one request soon: the requests handed in while the event loop turns are written together, in one
   * transaction, once it has turned (a fleet's captains all ask around each tick). Reads of this log, flush() and
   * closing the store write them first. A process killed meanwhile loses them (the transcript is not affected: the
   * log serves later replays).
   */
  recordSoon(input: RequestRecordInput): void;
  /** Writes what recordSoon holds; errors are thrown to the caller. */
  flush(): void;
  /** Oldest first. */
  list(sessionId: string, range?: MessageRange): RequestRecord[];
  count(sessionId: string): number;
  /** Throws when there is no such request. */
  load(id: number): StoredRequest;
}

/** same: the same calls (tool, action, canonical arguments); same-action: the same tools and actions, other
 * arguments; different: another choice; invalid: a call the stored tool list refuses; failed: no answer at all. */
export type Verdict = 'same' | 'same-action' | 'different' | 'invalid' | 'failed';

export type CounterfactualStatus = 'running' | 'done' | 'interrupted' | 'failed';

export interface CounterfactualRun {
  id: number;
  /** `<session name>.cf<N>`. */
  name: string;
  sessionId: string;
  sessionName: string;
  model: string;
  /** The system prompt tried instead of the original one; null = the original. */
  prompt: string | null;
  fromTurn: number | null;
  toTurn: number | null;
  status: CounterfactualStatus;
  createdAt: number;
  endedAt: number | null;
}

export interface CounterfactualDecision {
  requestId: number;
  turn: number;
  round: number;
  verdict: Verdict;
  /** What the original captain answered to this request (its calls; its text when it answered in words). */
  original: { content: string; toolCalls: ToolCall[] };
  proposed: { content: string; toolCalls: ToolCall[] };
  /** Why the proposed calls are invalid, or why there was no answer. */
  problems: string[];
  usage: Usage;
  latencyMs: number;
}

export interface CounterfactualTotals {
  decisions: number;
  same: number;
  /** Same tools and actions with other arguments (counted in `different` too). */
  sameAction: number;
  different: number;
  invalid: number;
  failed: number;
  tokens: number;
  costUsd: number;
}

export interface CounterfactualSummary {
  run: CounterfactualRun;
  totals: CounterfactualTotals;
}

export interface CounterfactualStore {
  create(input: {
    sessionId: string;
    model: string;
    prompt?: string;
    fromTurn?: number;
    toTurn?: number;
  }): CounterfactualRun;
  addDecision(counterfactualId: number, decision: CounterfactualDecision): void;
  finish(counterfactualId: number, status: Exclude<CounterfactualStatus, 'running'>): void;
  /** Newest first. */
  list(): CounterfactualSummary[];
  get(nameOrId: string | number): CounterfactualSummary | undefined;
  decisions(counterfactualId: number): CounterfactualDecision[];
}
