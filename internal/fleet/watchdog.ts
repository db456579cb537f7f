// The fleet's watchdog: one per captain, it is told what the captain does (turns, game calls, the ship's figures) and,
// when asked, says whether something is wrong and the one next thing to do about it — a nudge, a re-plan, the autopilot,
// parking — climbing that ladder only while the problem stays. Time and ticks come in from the runner (no timers, no
// clock of its own), so the whole of it is decided on plain data and tested without a game or a model.
import type { WatchdogAction, WatchdogStep } from './types.js';

export interface WatchdogOptions {
  /** No successful game action for this many game ticks (default 20). */
  noActionTicks?: number;
  /** Credits unchanged for this long in wall time while playing (default an hour). */
  flatCreditsMs?: number;
  /** The same call (name + canonical args) this many times in a row without progress (default 6). */
  repeatLimit?: number;
  /** fuel/maxFuel at or below this (default 0.1). */
  fuelCritical?: number;
  /** hull/maxHull at or below this (default 0.25). */
  hullCritical?: number;
  /** A turn started and not ended for this long (default 5 minutes). */
  turnTimeoutMs?: number;
  /** Ticks to wait after a step before taking the next one (default 5). */
  graceTicks?: number;
  /** The same in wall time; whichever of the two comes first (default a minute). */
  graceMs?: number;
  /** Planner mode is on for this captain: a re-plan asks its planner to plan again. */
  canReplan: boolean;
  /** The built-in autopilot can fly this game. */
  canAutopilot: boolean;
  /** The captain is flown by the autopilot already (then the 'autopilot' step is skipped). */
  isAutopilot: () => boolean;
}

export type WatchEvent =
  | { type: 'turn-start'; at: number }
  | { type: 'turn-end'; at: number }
  | { type: 'call'; name: string; args: string; action: boolean; ok: boolean; tick: number; at: number }
  | {
      type: 'state';
      tick: number;
      at: number;
      credits?: number;
      fuel?: number;
      maxFuel?: number;
      hull?: number;
      maxHull?: number;
    };

/** Most urgent first: a turn that never ends hides every other figure, and a ship about to break matters most. */
export type ProblemKind = 'stuck-turn' | 'hull' | 'fuel' | 'repeat' | 'no-action' | 'flat-credits';

export interface Problem {
  kind: ProblemKind;
  /** One line naming the figure: "no game action for 23 ticks". */
  reason: string;
  /** What the captain reads when nudged; none for a stuck turn (a turn that never ends cannot read it). */
  nudge: string | undefined;
}

/** What the watchdog has seen of the captain: the figures its rules are decided on. */
export interface WatchFigures {
  lastActionTick: number;
  /** When the running turn started; undefined between turns. */
  turnStartAt: number | undefined;
  /** The last call that made no progress (exact name and args: two calls are the same only if these are). */
  lastCall: { name: string; args: string } | undefined;
  /** Consecutive identical calls that made no progress, the last one included. */
  repeats: number;
  credits: number | undefined;
  /** When credits last moved (or were first seen). */
  creditsSince: number;
  fuel: number | undefined;
  maxFuel: number | undefined;
  hull: number | undefined;
  maxHull: number | undefined;
}

export type WatchLimits = Required<Omit<WatchdogOptions, 'canReplan' | 'canAutopilot' | 'isAutopilot'>>;

const DEFAULTS: WatchLimits = {
  noActionTicks: 20,
  flatCreditsMs: 3_600_000,
  repeatLimit: 6,
  fuelCritical: 0.1,
  hullCritical: 0.25,
  turnTimeoutMs: 300_000,
  graceTicks: 5,
  graceMs: 60_000,
};

/** Options from a fleet file: a bad figure is refused with what to write instead, never left to misfire later. */
export function watchLimits(options: WatchdogOptions): WatchLimits {
  const limits: WatchLimits = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as (keyof WatchLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    const ratio = key === 'fuelCritical' || key === 'hullCritical';
    const grace = key === 'graceTicks' || key === 'graceMs';
    const fine = Number.isFinite(value) && (ratio ? value >= 0 && value < 1 : grace ? value >= 0 : value > 0);
    if (!fine) {
      const want = ratio
        ? 'a fraction from 0 up to (not including) 1'
        : grace
          ? 'a number 0 or above'
          : 'a number above 0';
      throw new Error(
        `watchdog: ${key} must be ${want} (got ${String(value)}); fix it or leave it out for ${DEFAULTS[key]}`,
      );
    }
    limits[key] = value;
  }
  return limits;
}

/** Every problem present now, most urgent first. */
export function findProblems(figures: WatchFigures, limits: WatchLimits, now: number, tick: number): Problem[] {
  const found = [
    stuckTurn(figures, limits, now),
    critical('hull', figures.hull, figures.maxHull, limits.hullCritical),
    critical('fuel', figures.fuel, figures.maxFuel, limits.fuelCritical),
    repeatedCall(figures, limits),
    noAction(figures, limits, tick),
    flatCredits(figures, limits, now),
  ];
  return found.filter((problem): problem is Problem => problem !== undefined);
}

function stuckTurn(figures: WatchFigures, limits: WatchLimits, now: number): Problem | undefined {
  if (figures.turnStartAt === undefined) return undefined;
  const running = now - figures.turnStartAt;
  if (running < limits.turnTimeoutMs) return undefined;
  return { kind: 'stuck-turn', reason: `a turn running for ${duration(running)} without ending`, nudge: undefined };
}

function critical(
  kind: 'hull' | 'fuel',
  value: number | undefined,
  max: number | undefined,
  limit: number,
): Problem | undefined {
  if (value === undefined || max === undefined || max <= 0) return undefined;
  if (value / max > limit) return undefined;
  const reason = `${kind} at ${value} of ${max} (${Math.round((value / max) * 100)}%)`;
  const fix = kind === 'fuel' ? 'Dock and refuel now' : 'Dock and repair now, and keep out of fights until then';
  return { kind, reason, nudge: `Watchdog: ${reason}. ${fix}.` };
}

function repeatedCall(figures: WatchFigures, limits: WatchLimits): Problem | undefined {
  if (figures.lastCall === undefined || figures.repeats < limits.repeatLimit) return undefined;
  const call = callLine(figures.lastCall.name, figures.lastCall.args);
  const reason = `the same call ${call} ${figures.repeats} times in a row`;
  const nudge = `Watchdog: you made ${reason} and nothing changed. Stop repeating it: read its result and do something else.`;
  return { kind: 'repeat', reason, nudge };
}

function noAction(figures: WatchFigures, limits: WatchLimits, tick: number): Problem | undefined {
  const idle = tick - figures.lastActionTick;
  if (idle < limits.noActionTicks) return undefined;
  const reason = `no game action for ${idle} ticks`;
  return { kind: 'no-action', reason, nudge: `Watchdog: ${reason}. Take an action now: travel, mine, sell or dock.` };
}

function flatCredits(figures: WatchFigures, limits: WatchLimits, now: number): Problem | undefined {
  if (figures.credits === undefined) return undefined;
  const flat = now - figures.creditsSince;
  if (flat < limits.flatCreditsMs) return undefined;
  const reason = `credits unchanged at ${figures.credits} for ${duration(flat)}`;
  const nudge = `Watchdog: ${reason}. Change what you do: sell your cargo, trade somewhere else or take a mission.`;
  return { kind: 'flat-credits', reason, nudge };
}

/** A call as one short line: the model's arguments can be long, and a reason is one line. */
function callLine(name: string, args: string): string {
  const flat = args.replace(/\s+/g, ' ').trim();
  return `${name} ${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat}`;
}

function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.floor(ms / 1000)} s`;
  return `${Math.floor(ms / 60_000)} min`;
}

const LADDER = ['nudged', 'replanned', 'autopilot', 'parked'] as const;
type Rung = (typeof LADDER)[number];

export interface LadderOptions {
  canReplan: boolean;
  canAutopilot: boolean;
  autopilotAlready: boolean;
}

/** The rung above `step` for this problem, skipping what cannot help; parking is always there. */
export function nextRung(step: WatchdogStep, kind: ProblemKind, ladder: LadderOptions): Rung {
  const usable: Record<Rung, boolean> = {
    nudged: kind !== 'stuck-turn',
    replanned: ladder.canReplan,
    autopilot: ladder.canAutopilot && !ladder.autopilotAlready,
    parked: true,
  };
  const from = step === 'ok' ? 0 : LADDER.indexOf(step) + 1;
  return LADDER.slice(from).find((rung) => usable[rung]) ?? 'parked';
}

function actionFor(rung: Rung, problem: Problem): WatchdogAction {
  const reason = problem.reason;
  if (rung === 'nudged') return { kind: 'nudge', text: problem.nudge ?? `Watchdog: ${reason}.`, reason };
  if (rung === 'replanned') return { kind: 'replan', reason };
  if (rung === 'autopilot') return { kind: 'autopilot', reason };
  return { kind: 'park', reason };
}

interface Moment {
  tick: number;
  at: number;
}

/** The problem the ladder is climbing for, and when it was found. */
interface Active {
  kind: ProblemKind;
  reason: string;
  found: Moment;
}

const STEPS: readonly WatchdogStep[] = ['ok', ...LADDER];

export class Watchdog {
  private readonly limits: WatchLimits;
  private readonly figures: WatchFigures;
  private current: WatchdogStep = 'ok';
  private active: Active | undefined;
  private lastStep: Moment | undefined;
  /** After restore() to a middle rung: the first check since, from which a quiet spell counts as recovery. */
  private restoredAt: Moment | undefined;
  private restoredPending = false;

  constructor(
    private readonly options: WatchdogOptions,
    start: { tick: number; at: number },
  ) {
    this.limits = watchLimits(options);
    this.figures = {
      lastActionTick: start.tick,
      turnStartAt: undefined,
      lastCall: undefined,
      repeats: 0,
      credits: undefined,
      creditsSince: start.at,
      fuel: undefined,
      maxFuel: undefined,
      hull: undefined,
      maxHull: undefined,
    };
  }

  get step(): WatchdogStep {
    return this.current;
  }

  observe(event: WatchEvent): void {
    const figures = this.figures;
    if (event.type === 'turn-start') figures.turnStartAt = event.at;
    else if (event.type === 'turn-end') figures.turnStartAt = undefined;
    else if (event.type === 'call') this.observeCall(event);
    else if (event.type === 'state') this.observeState(event);
  }

  private observeCall(event: Extract<WatchEvent, { type: 'call' }>): void {
    const figures = this.figures;
    // A successful game action is progress: doing the same thing again (mining, say) is no loop.
    if (event.action && event.ok) {
      if (Number.isFinite(event.tick)) figures.lastActionTick = Math.max(figures.lastActionTick, event.tick);
      figures.lastCall = undefined;
      figures.repeats = 0;
      return;
    }
    const last = figures.lastCall;
    const same = last !== undefined && last.name === event.name && last.args === event.args;
    figures.repeats = same ? figures.repeats + 1 : 1;
    figures.lastCall = { name: event.name, args: event.args };
  }

  private observeState(event: Extract<WatchEvent, { type: 'state' }>): void {
    const figures = this.figures;
    const credits = finite(event.credits);
    if (credits !== undefined && credits !== figures.credits) {
      figures.credits = credits;
      figures.creditsSince = event.at;
    }
    figures.fuel = finite(event.fuel) ?? figures.fuel;
    figures.maxFuel = finite(event.maxFuel) ?? figures.maxFuel;
    figures.hull = finite(event.hull) ?? figures.hull;
    figures.maxHull = finite(event.maxHull) ?? figures.maxHull;
  }

  /** The problem now, in words ("no action for 23 ticks"), or undefined. */
  problem(now: number, tick: number): string | undefined {
    return this.atHand(findProblems(this.figures, this.limits, now, tick))?.reason;
  }

  /** At most one action per call, in escalating order for the problem at hand. */
  check(now: number, tick: number): WatchdogAction | undefined {
    if (this.current === 'parked') return undefined;
    const moment = { tick, at: now };
    const problems = findProblems(this.figures, this.limits, now, tick);
    const cleared = this.clearActive(problems);
    if (cleared) return cleared;
    const problem = this.atHand(problems);
    if (!problem) return this.quietSinceRestore(moment);
    this.restoredPending = false;
    if (!this.active) this.active = { kind: problem.kind, reason: problem.reason, found: moment };
    this.active.reason = problem.reason;
    if (!this.due(moment)) return undefined;
    const rung = nextRung(this.current, problem.kind, {
      canReplan: this.options.canReplan,
      canAutopilot: this.options.canAutopilot,
      autopilotAlready: this.options.isAutopilot(),
    });
    this.current = rung;
    this.lastStep = moment;
    return actionFor(rung, problem);
  }

  /** After a restart: the step the store kept. Grace for the next rung counts from when a problem is found again. */
  restore(step: WatchdogStep): void {
    if (!STEPS.includes(step)) {
      throw new Error(`watchdog: cannot restore step ${JSON.stringify(step)}; expected one of ${STEPS.join(', ')}`);
    }
    this.current = step;
    this.active = undefined;
    this.lastStep = undefined;
    this.restoredAt = undefined;
    this.restoredPending = step === 'nudged' || step === 'replanned';
  }

  /** The active problem keeps the ladder while it lasts; otherwise the most urgent one present. */
  private atHand(problems: Problem[]): Problem | undefined {
    return problems.find((problem) => problem.kind === this.active?.kind) ?? problems[0];
  }

  /** The problem the ladder climbed for is gone: back to ok, said once — unless the autopilot flies or it is parked,
   * which stay for the runner to undo. */
  private clearActive(problems: Problem[]): WatchdogAction | undefined {
    const active = this.active;
    if (!active || problems.some((problem) => problem.kind === active.kind)) return undefined;
    this.active = undefined;
    if (this.current !== 'nudged' && this.current !== 'replanned') return undefined;
    const was = this.current;
    this.current = 'ok';
    this.lastStep = undefined;
    return { kind: 'recovered', reason: `cleared after ${was}: ${active.reason}` };
  }

  /** A rung restored from the store with no problem seen since: a full no-action window without one is recovery
   * (the thresholds count afresh after a restart, so an earlier quiet proves nothing). */
  private quietSinceRestore(moment: Moment): WatchdogAction | undefined {
    if (!this.restoredPending) return undefined;
    this.restoredAt ??= moment;
    const quiet = moment.tick - this.restoredAt.tick;
    if (quiet < this.limits.noActionTicks) return undefined;
    const was = this.current;
    this.restoredPending = false;
    this.current = 'ok';
    return { kind: 'recovered', reason: `no problem for ${quiet} ticks since the restart (was ${was})` };
  }

  /** The first rung at once; each next one graceTicks or graceMs (whichever first) after the later of the previous
   * step and the problem's finding, so a problem found long after the autopilot took over still gets its grace. */
  private due(moment: Moment): boolean {
    if (this.current === 'ok') return true;
    const found = this.active?.found ?? moment;
    const tickFrom = Math.max(found.tick, this.lastStep?.tick ?? found.tick);
    const atFrom = Math.max(found.at, this.lastStep?.at ?? found.at);
    return moment.tick - tickFrom >= this.limits.graceTicks || moment.at - atFrom >= this.limits.graceMs;
  }
}

function finite(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}
