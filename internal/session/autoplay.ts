// Autoplay: unattended turns, single flight (rule 6). The next turn starts when the last one ended; waiting happens
// inside blocking game calls or on retry_after, never on a fixed timer; a turn that made no action waits a tick.
// Stop rules are small predicates (autoplay-stops.ts); why autoplay stopped is a StopReason, worded for people by stopReasonText.
import { firstStop, promptStatesGoal, usageTokens } from '../llm/index.js';
import { DEFAULT_GOAL, autoplayPrompt } from './autoplay-prompt.js';
import { renderEvents } from '../game/index.js';
import type { GameEvents, Provider, Usage } from '../shared/index.js';
import { FatalError, isAbortError, sleep, argumentsOf } from '../shared/index.js';
import { describePlan } from '../spacemolt/index.js';
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
import { isStoreUnavailable, waitForStore, type StoreHealthSource } from './store-wait.js';
import { wakePrompt, wakeText, type Planner, type WakeReason } from './planner.js';
import { tickUtilisation, type UtilisationSource } from './tick-utilisation.js';
import type { StoredFigures } from './session-figures.js';

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
  /** The session's turn count when the run started: its start snapshot is that turn's (storedFigures' fromTurn). */
  startTurn: number;
  ticks: number | undefined;
  tickUtilisation: number | undefined;
  /** Where the ticks came from: the game's own tick, or the client's clock estimate (labelled). */
  tickSource?: 'server' | 'estimated';
  /** Where utilisation came from: the game's busy ÷ alive, or the client's own estimate (see tickUtilisation). */
  utilisationSource?: UtilisationSource;
  /** The game's busy ticks and ticks alive over the run, when it reports them: stored with the session
   * (withServerTicks) so every view shows the game's utilisation. */
  serverTicks?: { busy: number; alive: number };
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
  /** The run's figures as the store holds them once it ended (storedFigures): what every view shows. */
  stored?: StoredFigures;
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
  /** The game's events since the last turn, if it has notifications (typed; rendered into the turn's input). */
  fetchEvents?: (signal: AbortSignal) => Promise<GameEvents | undefined>;
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
  /** The store: a turn cut off because the database could not be reached is no failure of the captain's — autoplay
   * waits until the store is back, then plays on (nothing is sent to the game meanwhile). */
  store?: StoreHealthSource;
  now?: () => number;
}

/** The autoplay engine over a runner; a captain's autoplay (captain.ts) is the way in outside tests. */
export async function runAutoplayTurns(options: AutoplayOptions): Promise<AutoplaySummary> {
  const now = options.now ?? Date.now;
  const runner = options.runner;
  const goal = options.goal.trim() || DEFAULT_GOAL;
  const statsBefore = await safely(options.tickStats);
  // A game that has not told its tick yet (a busy server) is asked until it does: the run counts ticks from here.
  await options.clock?.refresh(options.signal, { untilKnown: true });
  const start = await runner.refreshState(options.signal).catch(() => runner.state);
  const startTurn = runner.turns;
  const progress = beginProgress(options, start, now);
  const run: AutoplayRun = { options, goal, now, startTurn, progress, tally: newTally(start) };
  const stopCounting = countActions(run);
  let stopReason: StopReason;
  try {
    stopReason = await paceTurns(run);
  } finally {
    stopCounting();
    runner.emit({ type: 'autoplay', phase: 'end' });
  }
  return summarise(run, stopReason, statsBefore);
}

/** One autoplay run: what it was given and what it has counted so far. */
interface AutoplayRun {
  options: AutoplayOptions;
  goal: string;
  now: () => number;
  startTurn: number;
  progress: AutoplayProgress;
  tally: RunTally;
}

/** What the run counts for its summary, turn by turn and call by call. */
interface RunTally {
  /** The state the run is measured from: the first one seen, if the captain was not logged in at the start. */
  startState: GameState | undefined;
  actions: number;
  /** Ticks the captain's own actions took (an action takes at least one; travel and jump say how many). */
  actionTicks: number;
  toolCalls: number;
  errorsByCode: Record<string, number>;
  outcomes: Record<string, number>;
  planner: PlannerFigures;
}

function newTally(start: GameState | undefined): RunTally {
  return {
    startState: start ? { ...start } : undefined,
    actions: 0,
    actionTicks: 0,
    toolCalls: 0,
    errorsByCode: {},
    outcomes: {},
    planner: { wakes: 0, modelRequests: 0, reasons: {} },
  };
}

/** Marks where the run starts and announces it: the progress the stop rules read. */
function beginProgress(options: AutoplayOptions, start: GameState | undefined, now: () => number): AutoplayProgress {
  const runner = options.runner;
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
  const limits = options.limits;
  runner.emit({
    type: 'autoplay',
    phase: 'start',
    ...(startTick !== undefined ? { startTick } : {}),
    ...(limits.maxTicks !== undefined ? { maxTicks: limits.maxTicks } : {}),
    ...(limits.durationMs !== undefined ? { endsAt: progress.startedAt + limits.durationMs } : {}),
  });
  return progress;
}

/** Counts the captain's game actions as their results arrive; returns the unsubscribe. */
function countActions(run: AutoplayRun): () => void {
  const { options, tally } = run;
  return options.runner.on((event) => {
    // A captain that was not logged in yet starts where it is first seen.
    if (event.type === 'state' && tally.startState === undefined) tally.startState = { ...event.state };
    if (event.type !== 'tool-result') return;
    const call = event.call;
    if (event.message.isError || !options.isAction(call.name, argumentsOf(call.arguments))) return;
    tally.actions += 1;
    tally.actionTicks += Math.max(1, ticksTaken(event.message.data));
    // The tick limit is asked before every round: a server clock read over HTTP is refreshed after each action.
    if (options.clock?.source === 'server') void options.clock.refresh().catch(() => undefined);
  });
}

/** The pacing loop: one turn after another until a stop rule, the person, the budget or failures end it. */
async function paceTurns(run: AutoplayRun): Promise<StopReason> {
  const { options, progress } = run;
  const rules = stopRules(options.limits, run.now);
  const limitReached = inTurnLimit(run);
  let consecutiveFailures = 0;
  for (;;) {
    if (options.signal.aborted) return { code: 'cancelled' };
    const stop = firstStop(rules, progress);
    if (stop) return stop;
    const turn = await playTurn(run, limitReached);
    if (turn.type === 'stopped') return turn.reason;
    if (turn.type === 'store-down') {
      const waited = await waitForStoreOrStop(options);
      if (waited) return waited;
      continue;
    }
    const summary = turn.summary;
    tallyTurn(run, summary);
    if (summary.outcome === 'cancelled') return { code: 'cancelled' };
    if (summary.outcome === 'budget_exceeded') return { code: 'budget_exceeded' };
    // Rule 10: only a success resets the count; a loop or a round limit is no success.
    if (summary.outcome === 'answered') consecutiveFailures = 0;
    else if (summary.outcome === 'failed') consecutiveFailures += 1;
    if (consecutiveFailures >= 3) {
      return { code: 'failures', turns: consecutiveFailures, last: summary.error ?? 'unknown error' };
    }
    // Rule 18: a turn that made no game action (only queries, or nothing) waits one tick instead of spinning: the
    // game's state cannot change for us before the next tick (the only sleep in autoplay).
    if (!turn.acted || summary.outcome === 'failed') {
      const interrupted = await idleWait(options, summary);
      if (interrupted) return interrupted;
    }
  }
}

/** Ticks and time are limits inside a turn too: asked before every round, so no action starts past them. */
function inTurnLimit(run: AutoplayRun): () => string | undefined {
  const { options, progress } = run;
  const inTurnRules = stopRules({ ...pick(options.limits, 'maxTicks', 'durationMs') }, run.now);
  return () => {
    const reached = firstStop(inTurnRules, {
      ...progress,
      tick: options.clock?.now() ?? options.runner.state?.tick ?? progress.tick,
    });
    return reached ? stopReasonText(reached) : undefined;
  };
}

type PlayedTurn =
  | { type: 'played'; summary: TurnSummary; /** Whether the turn made a game action. */ acted: boolean }
  | { type: 'stopped'; reason: StopReason }
  /** The store could not be reached: the turn stopped where it was (its open calls are answered next turn). */
  | { type: 'store-down' };

/** Waits for the store to come back; the stop reason when the person stopped autoplay meanwhile. */
async function waitForStoreOrStop(options: AutoplayOptions): Promise<StopReason | undefined> {
  if (!options.store) return undefined;
  try {
    await waitForStore(options.store, options.signal);
    return undefined;
  } catch {
    return { code: 'cancelled' };
  }
}

/** One turn: the game's events and the person's orders in, the planner's say on who plays it, the turn run. */
async function playTurn(run: AutoplayRun, limitReached: () => string | undefined): Promise<PlayedTurn> {
  const { options, tally } = run;
  await options.clock?.refresh(options.signal);
  let events: GameEvents | undefined;
  try {
    events = await options.fetchEvents?.(options.signal);
  } catch {
    // Events are a courtesy: a failed fetch never costs the turn (nor the commander's orders, taken below).
    if (options.signal.aborted) return { type: 'stopped', reason: { code: 'cancelled' } };
  }
  if (events && events.events.length > 0) options.runner.emit({ type: 'game-events', events });
  const orders = options.takeOrders?.() ?? [];
  const step = plannerStep(run, { orders, events });
  const budget = turnBudget(options.limits, run.progress.startUsage);
  const actionsBefore = tally.actions;
  let summary: TurnSummary;
  try {
    summary = await options.runner.run(
      { kind: 'autoplay', text: step.text },
      {
        signal: options.signal,
        limit: limitReached,
        ...(budget ? { budget } : {}),
        ...(step.provider ? { provider: step.provider } : {}),
      },
    );
  } catch (error) {
    if (!(error instanceof FatalError) && isAbortError(error)) {
      return { type: 'stopped', reason: { code: 'cancelled' } };
    }
    if (options.store && isStoreUnavailable(error)) return { type: 'store-down' };
    throw error;
  }
  if (options.planner) {
    if (step.wake) tally.planner.modelRequests += summary.rounds;
    options.planner.afterTurn(summary, step.wake, step.planBefore);
  }
  return { type: 'played', summary, acted: tally.actions > actionsBefore };
}

interface PlannerStep {
  /** What the turn is asked: autoplay's prompt, or the wake prompt when the planner wakes the model. */
  text: string;
  wake: WakeReason | undefined;
  planBefore: Planner['plan'];
  /** Who plays the turn in planner mode (the flier, or the model woken); undefined: the session's model. */
  provider?: Provider;
}

/** Planner mode: the planner picks who plays the turn (the flier, or the model woken with a reason). */
function plannerStep(run: AutoplayRun, input: { orders: string[]; events: GameEvents | undefined }): PlannerStep {
  const { options, goal } = run;
  const { orders } = input;
  const runner = options.runner;
  // The events become text here, in the turn's input, and nowhere else; the planner reads them as data.
  const events = input.events ? renderEvents(input.events) : undefined;
  const text = autoplayPrompt({
    turn: runner.turns + 1,
    goal,
    orders,
    ...(events ? { events } : {}),
    goalInSystem: promptStatesGoal(runner.systemPrompt, goal),
  });
  const planner = options.planner;
  if (!planner) return { text, wake: undefined, planBefore: undefined };
  const planBefore = planner.plan;
  planner.observe(runner.state, options.clock?.now() ?? runner.state?.tick);
  const planned = planner.next({ orders, events: input.events });
  const provider = planned.provider;
  const wake = planned.wake;
  if (!wake) return { text, wake, planBefore, provider };
  runner.emit({ type: 'notice', text: `planner: asking ${planned.provider.id} for a plan — ${wakeText(wake)}` });
  const figures = run.tally.planner;
  figures.wakes += 1;
  figures.reasons[wake.kind] = (figures.reasons[wake.kind] ?? 0) + 1;
  const prompt = wakePrompt({
    reason: wake,
    plan: planner.plan,
    goal,
    everyTicks: planner.checkInTicks,
    ...(events ? { events } : {}),
  });
  return { text: prompt, wake, planBefore, provider };
}

/** A turn's budget is what is left of the run's: the limits counted from the usage the run started with. */
function turnBudget(limits: AutoplayLimits, startUsage: Usage): { tokens?: number; usd?: number } | undefined {
  const budget = {
    ...(limits.budgetTokens !== undefined ? { tokens: limits.budgetTokens + usageTokens(startUsage) } : {}),
    ...(limits.budgetUsd !== undefined ? { usd: limits.budgetUsd + startUsage.costUsd } : {}),
  };
  return Object.keys(budget).length > 0 ? budget : undefined;
}

/** Adds a finished turn to the run's progress and figures. */
function tallyTurn(run: AutoplayRun, summary: TurnSummary): void {
  const { options, progress, tally } = run;
  const runner = options.runner;
  progress.turns += 1;
  progress.usage = runner.usage;
  // The clock, not the last state: a captain whose calls all fail never sees a state, but the game's ticks go on.
  progress.tick = options.clock?.now() ?? runner.state?.tick ?? progress.tick;
  if (progress.startTick === undefined) progress.startTick = progress.tick;
  tally.toolCalls += summary.toolCalls;
  tally.outcomes[summary.outcome] = (tally.outcomes[summary.outcome] ?? 0) + 1;
  for (const [code, count] of Object.entries(summary.errorsByCode)) {
    tally.errorsByCode[code] = (tally.errorsByCode[code] ?? 0) + count;
  }
}

/** Waits one tick after an idle turn; returns why autoplay stops if the wait was interrupted. */
async function idleWait(options: AutoplayOptions, summary: TurnSummary): Promise<StopReason | undefined> {
  // A turn that did nothing at all waits at least 50 ms even where a tick is instant (turbo), so it never spins.
  const waitMs = summary.toolCalls === 0 ? Math.max(50, options.idleWaitMs) : options.idleWaitMs;
  if (waitMs <= 0) return undefined;
  try {
    await (options.sleep ?? sleep)(waitMs, options.signal);
    return undefined;
  } catch {
    return { code: 'cancelled' };
  }
}

/** The run's figures: ticks, utilisation, counts and usage between the stored start and end states. */
async function summarise(
  run: AutoplayRun,
  stopReason: StopReason,
  statsBefore: TickStats | undefined,
): Promise<AutoplaySummary> {
  const { options, progress, tally } = run;
  const runner = options.runner;
  await options.clock?.refresh();
  const end = await runner.refreshState().catch(() => runner.state);
  await runner.recordEndSnapshot();
  const statsAfter = await safely(options.tickStats);
  const endTick = end?.tick ?? options.clock?.now();
  const ticks = progress.startTick !== undefined && endTick !== undefined ? endTick - progress.startTick : undefined;
  const { server, utilisation } = runUtilisation(statsBefore, statsAfter, tally.actionTicks, ticks);
  const tickSource = options.clock?.source;
  const summary: AutoplaySummary = {
    goal: run.goal,
    stopReason,
    durationMs: run.now() - progress.startedAt,
    turns: progress.turns,
    startTurn: run.startTurn,
    ticks,
    tickUtilisation: utilisation?.value,
    ...(tickSource ? { tickSource } : {}),
    ...(utilisation ? { utilisationSource: utilisation.source } : {}),
    ...(server ? { serverTicks: server } : {}),
    actions: tally.actions,
    toolCalls: tally.toolCalls,
    errorsByCode: tally.errorsByCode,
    outcomes: tally.outcomes,
    start: tally.startState,
    end: end ? { ...end } : undefined,
    usage: subtractUsage(runner.usage, progress.startUsage),
    sessionName: runner.sessionName,
  };
  if (options.planner) {
    const plan = options.planner.plan;
    summary.planner = { ...tally.planner, ...(plan ? { plan: describePlan(plan) } : {}) };
  }
  return { ...summary, ...statsFigures(statsBefore, statsAfter) };
}

/** Deaths over the run and leaks, when the game counts them. */
function statsFigures(
  before: TickStats | undefined,
  after: TickStats | undefined,
): Pick<AutoplaySummary, 'deaths' | 'leaks'> {
  return {
    ...(after?.deaths !== undefined ? { deaths: after.deaths - (before?.deaths ?? 0) } : {}),
    ...(after?.leaks !== undefined ? { leaks: after.leaks } : {}),
  };
}

/** The game's busy ÷ alive when it reports them; otherwise the ticks this run's actions took over the ticks it ran. */
function runUtilisation(
  before: TickStats | undefined,
  after: TickStats | undefined,
  actionTicks: number,
  ticks: number | undefined,
): { server: ServerRunTicks | undefined; utilisation: ReturnType<typeof tickUtilisation> } {
  const server = serverTicks(before, after);
  return { server, utilisation: tickUtilisation({ ...(server ? { server } : {}), actionTicks, ticksElapsed: ticks }) };
}

type ServerRunTicks = { busy: number; alive: number };

/** The game's busy ticks and ticks alive over the run, when it reports them (and counted a tick alive). */
function serverTicks(before: TickStats | undefined, after: TickStats | undefined): ServerRunTicks | undefined {
  if (!after) return undefined;
  const alive = after.ticksAlive - (before?.ticksAlive ?? 0);
  return alive > 0 ? { busy: after.busyTicks - (before?.busyTicks ?? 0), alive } : undefined;
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
