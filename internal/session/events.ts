// What the session runner tells its watchers (the transcript renderer, the --json stream, the status line): every
// event of the running turn as the agent loop yields it, plus the session's own.
import type { TurnEvent, TurnInput, TurnOutcome } from '../llm/index.js';
import type { ConnectionEvent, GameEvents, Message, Usage } from '../shared/index.js';
import type { GameState } from './game-state.js';

export interface TurnSummary {
  turn: number;
  outcome: TurnOutcome;
  rounds: number;
  toolCalls: number;
  failedToolCalls: number;
  usage: Usage;
  errorsByCode: Record<string, number>;
  answer?: string;
  error?: string;
  durationMs: number;
}

/** The session's own events: around each turn, stored messages, game state and the connection. */
export type SessionEvent =
  | { type: 'turn-start'; turn: number; input: TurnInput }
  | { type: 'message-stored'; message: Message }
  | { type: 'state'; state: GameState }
  | { type: 'connection'; event: ConnectionEvent }
  | { type: 'turn-end'; summary: TurnSummary }
  /** The game's events read for the next autoplay turn (typed; the turn's input holds them as text). */
  | { type: 'game-events'; events: GameEvents }
  /** Autoplay began (with the limits a progress display counts against) or ended. */
  | { type: 'autoplay'; phase: 'start' | 'end'; startTick?: number; maxTicks?: number; endsAt?: number };

export type RunnerEvent = TurnEvent | SessionEvent;

export type RunnerListener = (event: RunnerEvent) => void;
