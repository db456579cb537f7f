// What the session runner tells its watchers (the transcript renderer, the --json stream, the status line).
import type { ConnectionEvent, Message, StreamDelta, ToolCall, Usage } from '../shared/index.js';
import type { GameState } from './game-state.js';

export interface TurnSummary {
  turn: number;
  outcome: string;
  rounds: number;
  toolCalls: number;
  failedToolCalls: number;
  usage: Usage;
  errorsByCode: Record<string, number>;
  answer?: string;
  error?: string;
  durationMs: number;
}

export type RunnerEvent =
  | { type: 'turn-start'; turn: number; input: { kind: string; text: string } }
  | { type: 'delta'; delta: StreamDelta }
  | { type: 'assistant-message'; message: Message }
  | { type: 'tool-call'; call: ToolCall; readOnly: boolean }
  | { type: 'tool-result'; message: Message }
  | { type: 'message-stored'; message: Message }
  | { type: 'notice'; text: string }
  | { type: 'state'; state: GameState }
  | { type: 'connection'; event: ConnectionEvent }
  | { type: 'turn-end'; summary: TurnSummary };

export type RunnerListener = (event: RunnerEvent) => void;
