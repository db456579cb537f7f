// Autoplay: unattended turns, single flight (rule 6). The next turn starts when the last one ended; waiting happens
// inside blocking game calls or on retry_after, never on a fixed timer; a turn that made no action waits a tick.
// Stop rules are small predicates (autoplay-stops.ts); why autoplay stopped is a StopReason, worded for people by stopReasonText.
import { firstStop, usageTokens } from '../llm/index.js';
import { DEFAULT_GOAL, autoplayPrompt } from './autoplay-prompt.js';
import type { Usage } from '../shared/index.js';
import { FatalError, isAbortError, sleep } from '../shared/index.js';
import { argumentsOf, describePlan } from '../spacemolt/index.js';
import {
  stopReasonText,
  stopRules,
  subtractUsage,
  type AutoplayLimits,
  type AutoplayProgress,
  type StopReason,
} from './autoplay-stops.js';
import { ticksTaken, type GameState } from './game-state.js';
import type { TurnSummary } from './events.js';
import type { SessionRunner } from './runner.js';
import type { TickClock } from './tick-clock.js';
import { wakePrompt, wakeText, type Planner, type WakeReason } from './planner.js';
import { tickUtilisation, type UtilisationSource } from './tick-utilisation.js';

export type { AutoplayLimits, StopReason };

export interface TickStats {
  ticksAlive: number;
  busyTicks: number;
  actions?: number;
  deaths?: number;
  leaks?: number;
}

export interface AutoplaySummary {
  goal: string;
  stopReason: StopReason;
  durationMs: number;
  turns: number;
  ticks: number | undefined;
  tickUtilisation: number | undefined;
  /** Where the ticks came from: the game's own tick, or the client's clock estimate (labelled). */
  tickSource?: 'server' | 'estimated';
  /** Where utilisation came from: the game's busy ÷ alive, or the client's own estimate (see tickUtilisation). */
  utilisationSource?: UtilisationSource;
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
  /** Planner mode: how often the model was woken, and why. */
  planner?: PlannerFigures;
  /** The handoff note asked after the run (Skipper's own step, no game tools): its tokens and cost, also in `usage`. */
  handoff?: Usage;
}

export interface PlannerFigures {
  wakes: number;
  /** Model requests made in wake turns (each round asks once). */
  modelRequests: number;
  reasons: Record<string, number>;
  plan?: string;
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
  /** How long to wait after a turn that made no game action (one game tick, as known). */
  idleWaitMs: number;
  /** The idle wait's sleep; real time unless a test injects one. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Whether a call is a tick-costing action (the game layer's per-call classification: on SpaceMolt v2 one tool
   * holds queries and actions). */
  isAction: (name: string, args: Record<string, unknown>) => boolean;
  /** The game's tick (SpaceMolt's results do not say it). */
  clock?: TickClock;
  /** Planner mode: the model sets a plan, the autopilot flies it; the model plays only the turns it is woken for. */
  planner?: Planner;
  now?: () => number;
}

export async function runAutoplay(options: AutoplayOptions): Promise<AutoplaySummary> {
  const now = options.now ?? Date.now;
  const runner = options.runner;
  const goal = options.goal.trim() || DEFAULT_GOAL;
  const rules = stopRules(options.limits, now);
  const statsBefore = await safely(options.tickStats);
  await options.clock?.refresh(options.signal);
  const start = await runner.refreshState(options.signal).catch(() => runner.state);
  // The state the run starts from is stored (with the first turn) as the session's snapshot before it, so the
  // summary, `sessions` and `report` measure ticks, credits and net worth between the same two stored states.
  const startTick = start?.tick ?? options.clock?.now();
  runner.markStart(startTick);
  const progress: AutoplayProgress = {
    turns: 0,
    startedAt: now(),
    startTick,
    tick: startTick,
    usage: runner.usage,
    startUsage: runner.usage,
  };
  runner.emit({
    type: 'autoplay',
    phase: 'start',
    ...(startTick !== undefined ? { startTick } : {}),
    ...(options.limits.maxTicks !== undefined ? { maxTicks: options.limits.maxTicks } : {}),
    ...(options.limits.durationMs !== undefined ? { endsAt: progress.startedAt + options.limits.durationMs } : {}),
  });
  const errorsByCode: Record<string, number> = {};
  const plannerFigures: PlannerFigures = { wakes: 0, modelRequests: 0, reasons: {} };
  const outcomes: Record<string, number> = {};
  let actions = 0;
  let toolCalls = 0;
  let stopReason: StopReason | undefined;
  let consecutiveFailures = 0;

  let startState = start ? { ...start } : undefined;
  /** Ticks the captain's own actions took (an action takes at least one; travel and jump say how many). */
  let actionTicks = 0;
  const countActions = runner.on((event) => {
    // A captain that was not logged in yet starts where it is first seen.
    if (event.type === 'state' && startState === undefined) startState = { ...event.state };
    if (event.type === 'tool-result') {
      const call = event.call;
      if (event.message.isError || !options.isAction(call.name, argumentsOf(call.arguments))) return;
      actions += 1;
      actionTicks += Math.max(1, ticksTaken(event.message.data));
      // The tick limit is asked before every round: a server clock read over HTTP is refreshed after each action.
      if (options.clock?.source === 'server') void options.clock.refresh().catch(() => undefined);
    }
  });

  // Ticks and time are limits inside a turn too: asked before every round, so no action starts past them.
  const inTurnRules = stopRules({ ...pick(options.limits, 'maxTicks', 'durationMs') }, now);
  const limitReached = (): string | undefined => {
    const reached = firstStop(inTurnRules, {
      ...progress,
      tick: options.clock?.now() ?? runner.state?.tick ?? progress.tick,
    });
    return reached ? stopReasonText(reached) : undefined;
  };

  try {
    while (!stopReason) {
      if (options.signal.aborted) {
        stopReason = { kind: 'interrupted' };
        break;
      }
      stopReason = firstStop(rules, progress);
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
      let text = autoplayPrompt({ turn: runner.turns + 1, goal, orders, ...(events ? { events } : {}) });
      const planner = options.planner;
      let wake: WakeReason | undefined;
      const planBefore = planner?.plan;
      if (planner) {
        planner.observe(runner.state, options.clock?.now() ?? runner.state?.tick);
        const planned = planner.next({ orders, events });
        runner.provider = planned.provider;
        wake = planned.wake;
        if (wake) {
          runner.emit({
            type: 'notice',
            text: `planner: asking ${planned.provider.id} for a plan — ${wakeText(wake)}`,
          });
          text = wakePrompt({
            reason: wake,
            plan: planner.plan,
            goal,
            everyTicks: planner.checkInTicks,
            ...(events ? { events } : {}),
          });
          plannerFigures.wakes += 1;
          plannerFigures.reasons[wake.kind] = (plannerFigures.reasons[wake.kind] ?? 0) + 1;
        }
      }
      const budget = {
        ...(options.limits.budgetTokens !== undefined
          ? { tokens: options.limits.budgetTokens + usageTokens(progress.startUsage) }
          : {}),
        ...(options.limits.budgetUsd !== undefined
          ? { usd: options.limits.budgetUsd + progress.startUsage.costUsd }
          : {}),
      };
      let summary: TurnSummary;
      const actionsBefore = actions;
      try {
        summary = await runner.run(
          { kind: 'autoplay', text },
          { signal: options.signal, limit: limitReached, ...(Object.keys(budget).length > 0 ? { budget } : {}) },
        );
      } catch (error) {
        if (error instanceof FatalError) throw error;
        if (isAbortError(error)) {
          stopReason = { kind: 'interrupted' };
          break;
        }
        throw error;
      }
      progress.turns += 1;
      if (planner) {
        if (wake) plannerFigures.modelRequests += summary.rounds;
        planner.afterTurn(summary, wake, planBefore);
      }
      progress.usage = runner.usage;
      // The clock, not the last state: a captain whose calls all fail never sees a state, but the game's ticks go on.
      progress.tick = options.clock?.now() ?? runner.state?.tick ?? progress.tick;
      if (progress.startTick === undefined) progress.startTick = progress.tick;
      toolCalls += summary.toolCalls;
      outcomes[summary.outcome] = (outcomes[summary.outcome] ?? 0) + 1;
      for (const [code, count] of Object.entries(summary.errorsByCode))
        errorsByCode[code] = (errorsByCode[code] ?? 0) + count;
      if (summary.outcome === 'cancelled') {
        stopReason = { kind: 'interrupted' };
        break;
      }
      if (summary.outcome === 'budget-exceeded') {
        stopReason = { kind: 'budget' };
        break;
      }
      // Rule 10: only a success resets the count; a loop or a round limit is no success.
      if (summary.outcome === 'answered') consecutiveFailures = 0;
      else if (summary.outcome === 'failed') consecutiveFailures += 1;
      if (consecutiveFailures >= 3) {
        stopReason = { kind: 'failures', turns: consecutiveFailures, last: summary.error ?? 'unknown error' };
        break;
      }
      // Rule 18: a turn that made no game action (only queries, or nothing) waits one tick instead of spinning: the
      // game's state cannot change for us before the next tick (the only sleep in autoplay).
      if (actions === actionsBefore || summary.outcome === 'failed') {
        // A turn that did nothing at all waits at least 50 ms even where a tick is instant (turbo), so it never spins.
        const waitMs = summary.toolCalls === 0 ? Math.max(50, options.idleWaitMs) : options.idleWaitMs;
        try {
          if (waitMs > 0) await (options.sleep ?? sleep)(waitMs, options.signal);
        } catch {
          stopReason = { kind: 'interrupted' };
        }
      }
    }
  } finally {
    countActions();
    runner.emit({ type: 'autoplay', phase: 'end' });
    // After autoplay the person talks to the model again (planner mode leaves it on the flier otherwise).
    if (options.planner) runner.provider = options.planner.model;
  }

  await options.clock?.refresh();
  const end = await runner.refreshState().catch(() => runner.state);
  runner.recordEndSnapshot();
  const statsAfter = await safely(options.tickStats);
  const endTick = end?.tick ?? options.clock?.now();
  const ticks = progress.startTick !== undefined && endTick !== undefined ? endTick - progress.startTick : undefined;
  // The game's busy ÷ alive when it reports them; otherwise the ticks this run's actions took over the ticks it ran.
  const server = statsAfter
    ? {
        busy: statsAfter.busyTicks - (statsBefore?.busyTicks ?? 0),
        alive: statsAfter.ticksAlive - (statsBefore?.ticksAlive ?? 0),
      }
    : undefined;
  const utilisation = tickUtilisation({ ...(server ? { server } : {}), actionTicks, ticksElapsed: ticks });
  const tickSource = options.clock?.source;
  const summary: AutoplaySummary = {
    goal,
    stopReason: stopReason ?? { kind: 'interrupted' }, // the loop ends only once a reason is set
    durationMs: now() - progress.startedAt,
    turns: progress.turns,
    ticks,
    tickUtilisation: utilisation?.value,
    ...(tickSource ? { tickSource } : {}),
    ...(utilisation ? { utilisationSource: utilisation.source } : {}),
    actions,
    toolCalls,
    errorsByCode,
    outcomes,
    start: startState,
    end: end ? { ...end } : undefined,
    usage: subtractUsage(runner.usage, progress.startUsage),
    sessionName: runner.sessionName,
  };
  if (options.planner) {
    const plan = options.planner.plan;
    summary.planner = { ...plannerFigures, ...(plan ? { plan: describePlan(plan) } : {}) };
  }
  if (statsAfter?.deaths !== undefined) summary.deaths = statsAfter.deaths - (statsBefore?.deaths ?? 0);
  if (statsAfter?.leaks !== undefined) summary.leaks = statsAfter.leaks;
  return summary;
}

async function safely<T>(read: (() => Promise<T | undefined>) | undefined): Promise<T | undefined> {
  if (!read) return undefined;
  try {
    return await read();
  } catch {
    return undefined;
  }
}

function pick<T extends object, K extends keyof T>(from: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}
