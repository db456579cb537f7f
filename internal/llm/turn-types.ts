// The types of one turn: what it takes, the events it yields while running (runTurnEvents, an async generator), and
// the result it returns.
import type {
  Game,
  Logger,
  Message,
  Provider,
  StreamDelta,
  ToolCall,
  ToolResult,
  ToolSpec,
  Usage,
} from '../shared/index.js';
import type { LocalTool } from './dispatch.js';
import type { Budget, TurnOutcome } from './guards.js';
import type { History } from './history.js';
import type { TokenCounter } from './token-counter.js';

export type TurnEvent =
  | { type: 'round-start'; round: number }
  | { type: 'delta'; delta: StreamDelta }
  | { type: 'assistant-message'; message: Message }
  | { type: 'tool-call'; call: ToolCall; readOnly: boolean }
  | { type: 'tool-result'; call: ToolCall; message: Message; result: ToolResult; ms: number }
  | { type: 'usage'; usage: Usage; round: number; latencyMs: number; model: string }
  | { type: 'notice'; text: string }
  | { type: 'round-end'; round: number };

/** What starts a turn: a line from the person, an autoplay tick, or a resumed session. */
export interface TurnInput {
  kind: 'user' | 'autoplay' | 'resume' | 'handoff';
  text: string;
}

export interface TurnResult {
  outcome: TurnOutcome;
  /** Rounds started (each one asked the model once, or twice on an empty-reply or context-length retry). */
  rounds: number;
  toolCalls: number;
  failedToolCalls: number;
  usage: Usage;
  /** The final text when the outcome is 'answered'. */
  answer?: string;
  error?: string;
  /** A line to show the model at the start of the next turn (pass it back as `nudge`). */
  nudge?: string;
  errorsByCode: Record<string, number>;
}

export interface TurnOptions {
  provider: Provider;
  /** `username`, when the game has it, says whether the captain is logged in (its account tool is then listed on
   * demand, not offered). */
  game: Pick<Game, 'call'> & Partial<Pick<Game, 'username'>>;
  tools: ToolSpec[];
  history: History;
  /** Appended as a user message at the start of the turn. */
  input?: TurnInput;
  /** Base prompt (see buildSystemPrompt). */
  systemPrompt: string;
  /** The game's status tool (its guide's status call, when a tool of its own): its text result is the state line's
   * source even without a dashboard. */
  statusTool?: string;
  memoryBlock?: string;
  /** Tools Skipper answers itself; dispatched like queries. */
  localTools?: LocalTool[];
  /** Default 20. */
  maxRounds?: number;
  budget?: Budget;
  /** A session limit (autoplay's --max-ticks, --duration), asked before every round: what was reached, or undefined. */
  limit?: () => string | undefined;
  /** Context budget in tokens: default 16,000, or half the provider's context window (capped) when known. */
  contextTokens?: number;
  /**
   * How the context budget is measured: the session's model tokenizer (tokenCounterFor(provider.id), chosen once per
   * session so its count cache lasts), or chars/4 when absent.
   */
  tokenCounter?: TokenCounter;
  signal?: AbortSignal;
  logger?: Logger;
  /** Turn number stamped on the messages this turn stores. */
  turn?: number;
  /** The previous turn's nudge (TurnResult.nudge): shown to the model in the system prompt for this turn only. */
  nudge?: string;
  /** Parallel queries at most (default 4). */
  concurrency?: number;
}

/** runTurn's options: a turn's, plus a listener that gets each event as runTurnEvents yields it. */
export interface RunTurnOptions extends TurnOptions {
  onEvent?: (event: TurnEvent) => void;
}
