// One turn's running state, shared by the loop (turn.ts), the model request (turn-reply.ts) and tool dispatch
// (turn-tools.ts): the tools offered and how each result counts, the context budget, the counters the stop rules
// read, and how the turn ends.
import { createHash } from 'node:crypto';
import type { Logger, Message, ToolResult, ToolSpec } from '../shared/index.js';
import { emptyUsage, silentLogger } from '../shared/index.js';
import { OlderTurns, findLatestState, queryResults } from './context.js';
import { callLabel, findCycle, type CallRecord } from './call-cycle.js';
import type { PreparedCall, ToolCatalog } from './dispatch.js';
import {
  budgetExceeded,
  canonicalJson,
  loopDetected,
  maxRounds,
  sessionLimit,
  tooManyFailures,
  type Stop,
  type StopRule,
  type TurnState,
} from './guards.js';
import { ESTIMATE_COUNTER, type TokenCounter } from './token-counter.js';
import { GAME_TOOLS_TOOL, fitToolListOnce } from './tool-budget.js';
import type { TurnOptions, TurnResult } from './turn-types.js';

export interface TurnRun {
  readonly options: TurnOptions;
  readonly logger: Logger;
  /** Stamped on every message the turn stores. */
  readonly stamp: { turn?: number };
  readonly catalog: ToolCatalog;
  /** What the model is offered: the fitted game tools and the local ones. */
  readonly specs: ToolSpec[];
  /** Whether a stored result counts as a query result (shortened to a stub in later rounds). */
  readonly isQuery: (name: string, message?: Message) => boolean;
  /** Tokens for messages in the context, after the tool schemas. */
  readonly budgetTokens: number;
  /** Measures budgetTokens (the session's model tokenizer, or chars/4). */
  readonly tokenCounter: TokenCounter;
  readonly beforeRound: StopRule[];
  readonly afterRound: StopRule[];
  readonly state: TurnState;
  readonly counts: { toolCalls: number; failedToolCalls: number; errorsByCode: Record<string, number> };
  /** How often each (call, result) pair came back this turn: the loop guard's input. */
  readonly repeats: Map<string, number>;
  /** The turn's calls in order, results left out: the cycle detector's input (rule 11). */
  readonly calls: CallRecord[];
  /** Raised once the model said the context was too long; kept for the rest of the turn. */
  compaction: 0 | 1 | 2;
  /** Where the current turn starts in the history (see markTurnStart). */
  currentTurnStart: number;
  /** The latest game state before the turn, found once per turn. */
  latestStateBefore: number;
  /** The older turns this turn's rounds send, rendered once (buildContext). */
  readonly older: OlderTurns;
  /**
   * Whether the provider is handed only the latest turns and the recipe of its context (latestTurns): it asks for
   * that (contextOnDemand), and the recipe can rebuild the context exactly — results are told apart by the tools
   * offered, which the stored list holds, and tokens are counted as chars/4, as a rebuild does.
   */
  readonly onDemand: boolean;
}

export function defaultContextTokens(contextWindow: number | undefined): number {
  if (!contextWindow) return 16_000;
  return Math.min(32_000, Math.max(2_000, Math.floor(contextWindow / 2)));
}

export function openTurn(options: TurnOptions): TurnRun {
  const logger = (options.logger ?? silentLogger).child({ turn: options.turn });
  const local = new Map((options.localTools ?? []).map((tool) => [tool.spec.name, tool]));
  const gameTools = new Map(options.tools.filter((spec) => !local.has(spec.name)).map((spec) => [spec.name, spec]));
  const contextTokens = options.contextTokens ?? defaultContextTokens(options.provider.contextWindow);
  const tokenCounter = options.tokenCounter ?? ESTIMATE_COUNTER;
  // Tool schemas travel with every request: a model is offered the tools it plays with, and those at most in a
  // quarter of the context (a real game's flat face may have ~206 tools). Past that they are compacted, then only the
  // core tools are offered; `game_tools` lists the rest, which stay callable by name (dispatch knows every game tool).
  const { fitted, listing } = fitToolListOnce(options.tools, [...gameTools.values()], {
    maxTokens: Math.floor(contextTokens / 4),
    counter: tokenCounter,
    playOnly: true,
    loggedIn: options.game.username?.() !== undefined,
  });
  if (listing && !local.has(GAME_TOOLS_TOOL)) local.set(GAME_TOOLS_TOOL, listing);
  const specs: ToolSpec[] = [...fitted.offered, ...[...local.values()].map((tool) => tool.spec)];
  // Per result, as the game layer classified the call (on a grouped tool, the op it read from the result), by the
  // tools offered: a rebuilt context (rebuildContext) knows only those, and a hidden tool's result counts as an action
  // in both.
  const offered = new Map(fitted.offered.map((spec) => [spec.name, spec]));
  const isQuery = queryResults({ tools: offered, local });
  return {
    options,
    logger,
    stamp: options.turn !== undefined ? { turn: options.turn } : {},
    catalog: { tools: gameTools, local },
    specs,
    isQuery,
    // Leave room for the tool schemas (but never less than half the budget for messages).
    budgetTokens: Math.max(Math.floor(contextTokens / 2), contextTokens - tokenCounter.text(JSON.stringify(specs))),
    tokenCounter,
    beforeRound: [
      ...(options.budget ? [budgetExceeded(options.budget)] : []),
      ...(options.limit ? [sessionLimit(options.limit)] : []),
    ],
    afterRound: [tooManyFailures(5), loopDetected(3), maxRounds(Math.max(1, options.maxRounds ?? 20))],
    state: { rounds: 0, usage: emptyUsage(), consecutiveFailures: 0 },
    counts: { toolCalls: 0, failedToolCalls: 0, errorsByCode: {} },
    repeats: new Map(),
    calls: [],
    compaction: 0,
    currentTurnStart: 0,
    latestStateBefore: -1,
    older: new OlderTurns(),
    onDemand: options.provider.capabilities?.contextOnDemand === true && tokenCounter === ESTIMATE_COUNTER,
  };
}

/**
 * Finds where the turn starts, once its input is in the history: appending it may let a windowed history drop its
 * oldest turns, so an index taken before the append could point past the turn's start. Without input, a user line
 * the caller appended just before the turn still belongs to it. One scan for the latest game state before the turn;
 * rounds then only look inside the current turn.
 */
export function markTurnStart(run: TurnRun): void {
  const atStart = run.options.history.snapshot();
  run.currentTurnStart = atStart.at(-1)?.role === 'user' ? atStart.length - 1 : atStart.length;
  run.latestStateBefore = findLatestState(atStart, {
    to: run.currentTurnStart,
    statusTool: run.options.statusTool,
  });
}

/** Counts a stored tool result for the outcome, the failure guard (rule 10) and the loop guard (rule 11). */
export function countResult(run: TurnRun, prepared: PreparedCall, result: ToolResult): void {
  const { state, counts, repeats } = run;
  counts.toolCalls += 1;
  if (result.isError) {
    counts.failedToolCalls += 1;
    state.consecutiveFailures += 1; // only a success resets it (rule 10)
    const code = result.code ?? 'error';
    counts.errorsByCode[code] = (counts.errorsByCode[code] ?? 0) + 1;
    state.lastError = `${prepared.call.name || '(no name)'}: ${result.text.slice(0, 200)}`;
  } else {
    state.consecutiveFailures = 0;
  }
  const name = prepared.call.name;
  const argsKey = prepared.invalid ? prepared.call.arguments : canonicalJson(prepared.args);
  // A successful action is left to the cycle detector: the real server answers the same action with the same words
  // each tick (`Mined 7 Platinum Ore.`) while the hold fills, so an equal result is not a sign of going nowhere.
  const succeededAction = !result.isError && !prepared.readOnly && !prepared.invalid;
  if (!succeededAction) {
    const digest = createHash('sha1')
      .update(name)
      .update('\0')
      .update(argsKey)
      .update('\0')
      .update(result.text)
      .digest('hex');
    const count = (repeats.get(digest) ?? 0) + 1;
    repeats.set(digest, count);
    if (!state.topRepeat || count > state.topRepeat.count) state.topRepeat = { name, count, text: result.text };
  }
  // Checked after every call, not every round: a cycle completed inside a round stays found when more calls follow.
  run.calls.push({
    key: `${name}\0${argsKey}`,
    label: callLabel(name, prepared.invalid ? prepared.call.arguments : prepared.args),
    action: !prepared.readOnly && !prepared.invalid,
  });
  state.cycle ??= findCycle(run.calls);
}

export function finishTurn(run: TurnRun, outcome: TurnResult['outcome'], extra: Partial<TurnResult> = {}): TurnResult {
  const { state, counts } = run;
  run.logger.info({ outcome, rounds: state.rounds, toolCalls: counts.toolCalls, error: extra.error }, 'turn end');
  return { outcome, rounds: state.rounds, ...counts, usage: state.usage, ...extra };
}

export function stopTurn(run: TurnRun, stop: Stop): TurnResult {
  return finishTurn(run, stop.outcome, {
    ...(stop.error ? { error: stop.error } : {}),
    ...(stop.nudge ? { nudge: stop.nudge } : {}),
  });
}
