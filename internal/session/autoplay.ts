// Autoplay: unattended turns, single flight (rule 6). The next turn starts when the last one ended; waiting happens
// inside blocking game calls or on retry_after, never on a fixed timer. Stop rules are small predicates.
import type { Usage } from '../shared/index.js';
import { FatalError, argumentsOf, callKind, isAbortError, sleep, type ToolSpec } from '../shared/index.js';
import { ticksTaken, type GameState } from './game-state.js';
import type { TurnSummary } from './events.js';
import type { SessionRunner } from './runner.js';
import type { TickClock } from './tick-clock.js';

export interface AutoplayLimits {
  maxTicks?: number;
  maxTurns?: number;
  durationMs?: number;
  budgetUsd?: number;
  budgetTokens?: number;
}

export interface TickStats {
  ticksAlive: number;
  busyTicks: number;
  actions?: number;
  deaths?: number;
  leaks?: number;
}

export interface AutoplaySummary {
  goal: string;
  stopReason: string;
  durationMs: number;
  turns: number;
  ticks: number | undefined;
  tickUtilisation: number | undefined;
  /** Where ticks and utilisation came from: the game's own figures, or the client's estimate (labelled). */
  tickSource?: 'server' | 'estimated';
  actions: number;
  toolCalls: number;
  errorsByCode: Record<string, number>;
  outcomes: Record<string, number>;
  start: GameState | undefined;
  end: GameState | undefined;
  usage: Usage;
  sessionName: string;
  deaths?: number;
  leaks?: number;
}

interface Progress {
  turns: number;
  startedAt: number;
  startTick: number | undefined;
  tick: number | undefined;
  usage: Usage;
  startUsage: Usage;
}

type StopRule = (progress: Progress) => string | undefined;

export const maxTurns = (n: number): StopRule => (p) => (p.turns >= n ? `reached --max-turns ${n}` : undefined);
export const maxTicks = (n: number): StopRule => (p) =>
  p.startTick !== undefined && p.tick !== undefined && p.tick - p.startTick >= n ? `reached --max-ticks ${n}` : undefined;
export const maxDuration = (ms: number, now: () => number): StopRule => (p) =>
  now() - p.startedAt >= ms ? `reached --duration` : undefined;
export const budgetTokens = (n: number): StopRule => (p) =>
  spentTokens(p.usage) - spentTokens(p.startUsage) >= n ? `token budget of ${n} spent` : undefined;
export const budgetUsd = (usd: number): StopRule => (p) =>
  p.usage.costUsd - p.startUsage.costUsd >= usd ? `budget of $${usd} spent` : undefined;

const spentTokens = (usage: Usage): number => usage.promptTokens + usage.completionTokens;

export function stopRules(limits: AutoplayLimits, now: () => number = Date.now): StopRule[] {
  const rules: StopRule[] = [];
  if (limits.maxTurns !== undefined) rules.push(maxTurns(limits.maxTurns));
  if (limits.maxTicks !== undefined) rules.push(maxTicks(limits.maxTicks));
  if (limits.durationMs !== undefined) rules.push(maxDuration(limits.durationMs, now));
  if (limits.budgetTokens !== undefined) rules.push(budgetTokens(limits.budgetTokens));
  if (limits.budgetUsd !== undefined) rules.push(budgetUsd(limits.budgetUsd));
  return rules;
}

export interface AutoplayOptions {
  runner: SessionRunner;
  goal: string;
  limits: AutoplayLimits;
  /** Stops autoplay: aborts the running turn at once. */
  signal: AbortSignal;
  /** Lines the person typed while autoplay ran: handed to the next turn as the captain's orders. */
  takeOrders?: () => string[];
  /** "Events since your last turn" from the game, if it has notifications. */
  fetchEvents?: (signal: AbortSignal) => Promise<string | undefined>;
  /** The game's own count of busy ticks for this captain (minimolt's /stats), when it can be read. */
  tickStats?: () => Promise<TickStats | undefined>;
  /** How long to wait when the captain had nothing to do (one game tick). */
  idleWaitMs: number;
  /** Whether a call is a tick-costing action (the game layer's per-call classification: on SpaceMolt v2 one tool
   * holds queries and actions). */
  isAction: (name: string, args: Record<string, unknown>) => boolean;
  /** The game's tick (SpaceMolt's results do not say it). */
  clock?: TickClock;
  now?: () => number;
}

const DEFAULT_GOAL = 'grow your net worth: mine, trade and stay alive';

export function autoplayPrompt(options: { turn: number; goal: string; orders: string[]; events?: string }): string {
  const lines = [`Autoplay turn ${options.turn}. Goal: ${options.goal}.`];
  if (options.orders.length > 0) lines.push(`Orders from your commander (the person at the keyboard): ${options.orders.join(' / ')}`);
  if (options.events) lines.push(options.events);
  lines.push('Play on: act now (one action per tick), then answer with one line saying what you did.');
  return lines.join('\n');
}

export async function runAutoplay(options: AutoplayOptions): Promise<AutoplaySummary> {
  const now = options.now ?? Date.now;
  const runner = options.runner;
  const goal = options.goal.trim() || DEFAULT_GOAL;
  const rules = stopRules(options.limits, now);
  const statsBefore = await safely(options.tickStats);
  await options.clock?.refresh(options.signal);
  const start = await runner.refreshState(options.signal).catch(() => runner.state);
  const progress: Progress = {
    turns: 0,
    startedAt: now(),
    startTick: options.clock?.now() ?? start?.tick,
    tick: options.clock?.now() ?? start?.tick,
    usage: runner.usage,
    startUsage: runner.usage,
  };
  const errorsByCode: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  let actions = 0;
  let toolCalls = 0;
  let stopReason = '';
  let consecutiveFailures = 0;

  let startState = start ? { ...start } : undefined;
  /** Ticks the captain's own actions took (an action takes at least one; travel and jump say how many). */
  let actionTicks = 0;
  const calls = new Map<string, { name: string; arguments: string }>();
  const countActions = runner.on((event) => {
    // A captain that was not logged in yet starts where it is first seen.
    if (event.type === 'state' && startState === undefined) startState = { ...event.state };
    if (event.type === 'tool-call') calls.set(event.call.id, event.call);
    if (event.type === 'tool-result') {
      const call = event.message.toolCallId === undefined ? undefined : calls.get(event.message.toolCallId);
      if (event.message.toolCallId !== undefined) calls.delete(event.message.toolCallId);
      if (!call || event.message.isError || !options.isAction(call.name, argumentsOf(call.arguments))) return;
      actions += 1;
      actionTicks += Math.max(1, ticksTaken(event.message.data));
    }
  });

  try {
    while (!stopReason) {
      if (options.signal.aborted) {
        stopReason = 'interrupted';
        break;
      }
      for (const rule of rules) {
        const reason = rule(progress);
        if (reason) {
          stopReason = reason;
          break;
        }
      }
      if (stopReason) break;
      await options.clock?.refresh(options.signal);
      let events: string | undefined;
      try {
        events = await options.fetchEvents?.(options.signal);
      } catch {
        // Events are a courtesy: a failed fetch never costs the turn (nor the commander's orders, taken below).
        if (options.signal.aborted) continue;
      }
      const orders = options.takeOrders?.() ?? [];
      const text = autoplayPrompt({ turn: runner.turns + 1, goal, orders, ...(events ? { events } : {}) });
      const budget = {
        ...(options.limits.budgetTokens !== undefined
          ? { tokens: options.limits.budgetTokens + spentTokens(progress.startUsage) }
          : {}),
        ...(options.limits.budgetUsd !== undefined ? { usd: options.limits.budgetUsd + progress.startUsage.costUsd } : {}),
      };
      let summary: TurnSummary;
      try {
        summary = await runner.run(
          { kind: 'autoplay', text },
          { signal: options.signal, ...(Object.keys(budget).length > 0 ? { budget } : {}) },
        );
      } catch (error) {
        if (error instanceof FatalError) throw error;
        if (isAbortError(error)) {
          stopReason = 'interrupted';
          break;
        }
        throw error;
      }
      progress.turns += 1;
      progress.usage = runner.usage;
      // The clock, not the last state: a captain whose calls all fail never sees a state, but the game's ticks go on.
      progress.tick = options.clock?.now() ?? runner.state?.tick ?? progress.tick;
      if (progress.startTick === undefined) progress.startTick = progress.tick;
      toolCalls += summary.toolCalls;
      outcomes[summary.outcome] = (outcomes[summary.outcome] ?? 0) + 1;
      for (const [code, count] of Object.entries(summary.errorsByCode)) errorsByCode[code] = (errorsByCode[code] ?? 0) + count;
      if (summary.outcome === 'cancelled') {
        stopReason = 'interrupted';
        break;
      }
      if (summary.outcome === 'budget-exceeded') {
        stopReason = 'budget spent';
        break;
      }
      // Rule 10: only a success resets the count; a loop or a round limit is no success.
      if (summary.outcome === 'answered') consecutiveFailures = 0;
      else if (summary.outcome === 'failed') consecutiveFailures += 1;
      if (consecutiveFailures >= 3) {
        stopReason = `3 turns in a row failed (last: ${summary.error ?? 'unknown error'})`;
        break;
      }
      // A captain with nothing to do waits one tick instead of spinning (the only sleep in autoplay).
      if (summary.toolCalls === 0 || summary.outcome === 'failed') {
        try {
          await sleep(Math.max(50, options.idleWaitMs), options.signal);
        } catch {
          stopReason = 'interrupted';
        }
      }
    }
  } finally {
    countActions();
  }

  await options.clock?.refresh();
  const end = await runner.refreshState().catch(() => runner.state);
  const statsAfter = await safely(options.tickStats);
  const endTick = options.clock?.now() ?? end?.tick;
  const ticks = progress.startTick !== undefined && endTick !== undefined ? endTick - progress.startTick : undefined;
  let tickUtilisation: number | undefined;
  let tickSource = options.clock?.source;
  if (statsAfter) {
    const alive = statsAfter.ticksAlive - (statsBefore?.ticksAlive ?? 0);
    const busy = statsAfter.busyTicks - (statsBefore?.busyTicks ?? 0);
    tickUtilisation = alive > 0 ? Math.min(1, busy / alive) : undefined;
    tickSource = 'server';
  } else if (ticks !== undefined && ticks > 0) {
    // No server figure: the client's own count (ticks its actions took over ticks elapsed), labelled as such.
    tickUtilisation = Math.min(1, actionTicks / ticks);
    tickSource = 'estimated';
  }
  const summary: AutoplaySummary = {
    goal,
    stopReason,
    durationMs: now() - progress.startedAt,
    turns: progress.turns,
    ticks,
    tickUtilisation,
    ...(tickSource ? { tickSource } : {}),
    actions,
    toolCalls,
    errorsByCode,
    outcomes,
    start: startState,
    end: end ? { ...end } : undefined,
    usage: subtractUsage(runner.usage, progress.startUsage),
    sessionName: runner.sessionName,
  };
  if (statsAfter?.deaths !== undefined) summary.deaths = statsAfter.deaths - (statsBefore?.deaths ?? 0);
  if (statsAfter?.leaks !== undefined) summary.leaks = statsAfter.leaks;
  return summary;
}

/** isAction for a tool list: a call is an action when the game layer classified it (per action) as a mutation. */
export function actionClassifier(tools: readonly ToolSpec[]): (name: string, args: Record<string, unknown>) => boolean {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return (name, args) => byName.has(name) && callKind(byName.get(name), args) === 'mutation';
}



async function safely<T>(read: (() => Promise<T | undefined>) | undefined): Promise<T | undefined> {
  if (!read) return undefined;
  try {
    return await read();
  } catch {
    return undefined;
  }
}

function subtractUsage(a: Usage, b: Usage): Usage {
  return {
    promptTokens: a.promptTokens - b.promptTokens,
    completionTokens: a.completionTokens - b.completionTokens,
    cachedTokens: a.cachedTokens - b.cachedTokens,
    reasoningTokens: (a.reasoningTokens ?? 0) - (b.reasoningTokens ?? 0),
    costUsd: a.costUsd - b.costUsd,
  };
}
