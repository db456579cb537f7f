// The budget governor: keeps each captain (and the fleet as a whole) inside its daily USD cap by walking it down the
// ladder (its model, its fallback model, planner mode, the autopilot, parked) as the money runs out. Pure: no I/O,
// the clock is injected, and the runner applies the changes it returns. Days are UTC days, as the store's costDay.
import type { LadderChange, LadderStep } from './types.js';

export interface GovernorCaptain {
  name: string;
  /** Daily USD cap for this captain. */
  budgetUsd?: number;
  hasFallback: boolean;
  canPlan: boolean;
  canAutopilot: boolean;
  /** Plays with the built-in autopilot already: costs nothing, never steps down. */
  isBuiltin: boolean;
}

/** Fractions of a cap at which a captain steps down to the fallback model, planner mode and the autopilot. */
export interface GovernorThresholds {
  fallback: number;
  planner: number;
  autopilot: number;
}

export interface GovernorOptions {
  captains: GovernorCaptain[];
  fleetBudgetUsd?: number;
  now?: () => number;
  thresholds?: GovernorThresholds;
}

export const defaultThresholds: GovernorThresholds = { fallback: 0.6, planner: 0.75, autopilot: 0.9 };

/** Cheapest last: a step's rank only grows within a day. */
const RANK: Record<LadderStep, number> = { model: 0, fallback: 1, planner: 2, autopilot: 3, parked: 4 };

const STEP_TEXT: Record<LadderStep, string> = {
  model: 'back to its model',
  fallback: 'steps down to its fallback model',
  planner: 'steps down to planner mode',
  autopilot: 'autopilot only',
  parked: 'parked until the next UTC day',
};

// Costs are sums of many small floats: 0.1 + 0.2 + 0.3 must reach a 0.6 threshold.
const EPSILON = 1e-9;

interface CaptainState {
  spec: GovernorCaptain;
  spent: number;
  step: LadderStep;
}

/** How far through a cap the spending is, and which cap it is. */
interface Pressure {
  fraction: number;
  spent: number;
  cap: number;
  fleet: boolean;
}

const money = (usd: number): string => `$${usd.toFixed(2)}`;

/** UTC YYYY-MM-DD of an epoch-ms time. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The step a captain belongs on at fraction `f` of its tightest cap (before the never-back-up rule). */
export function targetStep(f: number, captain: GovernorCaptain, thresholds: GovernorThresholds): LadderStep {
  if (captain.isBuiltin) return 'model';
  const reached = (threshold: number): boolean => f + EPSILON >= threshold;
  const last: LadderStep = captain.canAutopilot ? 'autopilot' : 'parked';
  if (reached(thresholds.autopilot) || reached(1)) return last;
  if (reached(thresholds.planner)) return captain.canPlan ? 'planner' : last;
  if (reached(thresholds.fallback)) {
    if (captain.hasFallback) return 'fallback';
    return captain.canPlan ? 'planner' : last;
  }
  return 'model';
}

function checkThresholds(thresholds: GovernorThresholds): void {
  const { fallback, planner, autopilot } = thresholds;
  const ordered = fallback > 0 && fallback <= planner && planner <= autopilot && autopilot <= 1;
  if (!ordered) {
    throw new RangeError(
      `governor thresholds must rise within (0, 1]: fallback ${fallback}, planner ${planner}, autopilot ${autopilot}`,
    );
  }
}

const usableCap = (cap: number | undefined): number | undefined =>
  cap !== undefined && Number.isFinite(cap) && cap > 0 ? cap : undefined;

export class BudgetGovernor {
  private readonly captains = new Map<string, CaptainState>();
  private readonly fleetCap: number | undefined;
  private readonly now: () => number;
  private readonly thresholds: GovernorThresholds;
  private today: string;

  constructor(options: GovernorOptions) {
    this.now = options.now ?? Date.now;
    this.thresholds = options.thresholds ?? defaultThresholds;
    checkThresholds(this.thresholds);
    this.fleetCap = usableCap(options.fleetBudgetUsd);
    for (const spec of options.captains) {
      if (this.captains.has(spec.name)) throw new Error(`governor: captain "${spec.name}" is listed twice`);
      this.captains.set(spec.name, { spec, spent: 0, step: 'model' });
    }
    this.today = this.day();
  }

  /** After a restart: what the store says was spent today (costDay 'YYYY-MM-DD' UTC; another day counts 0). Returns the step change it implies, if any. */
  restore(name: string, spent: { costToday: number; costDay: string }): LadderChange | undefined {
    this.rollover();
    const captain = this.get(name);
    const amount = spent.costDay === this.today && Number.isFinite(spent.costToday) ? spent.costToday : 0;
    captain.spent = Math.max(0, amount);
    return this.review(captain);
  }

  /** Spending happened (one model turn's cost). Returns every ladder change it causes: this captain's, or many captains' when the fleet cap crosses a threshold. */
  record(name: string, usd: number): LadderChange[] {
    const changes = this.rollover();
    const captain = this.get(name);
    if (Number.isFinite(usd) && usd > 0) captain.spent += usd;
    for (const each of this.captains.values()) {
      const change = this.review(each);
      if (change) changes.push(change);
    }
    return changes;
  }

  /** Every captain measured again (after a run of restore() calls the fleet total may move the ones restored first). */
  reviewAll(): LadderChange[] {
    const changes: LadderChange[] = [];
    for (const each of this.captains.values()) {
      const change = this.review(each);
      if (change) changes.push(change);
    }
    return changes;
  }

  step(name: string): LadderStep {
    return this.get(name).step;
  }

  spentToday(name: string): number {
    return this.get(name).spent;
  }

  fleetSpentToday(): number {
    let total = 0;
    for (const captain of this.captains.values()) total += captain.spent;
    return total;
  }

  day(): string {
    return utcDay(this.now());
  }

  /** USD the captain may still spend before its next step down (the runner gives each stretch of autoplay this as its budget). Infinity when neither it nor the fleet has a cap. */
  allowance(name: string): number {
    const captain = this.get(name);
    if (captain.step === 'parked') return 0;
    if (captain.spec.isBuiltin) return Infinity;
    const room = [
      this.room(captain, captain.spent, usableCap(captain.spec.budgetUsd)),
      this.room(captain, this.fleetSpentToday(), this.fleetCap),
    ];
    return Math.max(0, Math.min(...room));
  }

  /** A new UTC day: spending resets and every captain goes back to 'model'; returns the changes. Called by the runner each tick; also applied inside record(). */
  rollover(): LadderChange[] {
    const day = this.day();
    if (day === this.today) return [];
    this.today = day;
    const changes: LadderChange[] = [];
    for (const captain of this.captains.values()) {
      captain.spent = 0;
      if (captain.step === 'model') continue;
      changes.push({
        captain: captain.spec.name,
        from: captain.step,
        to: 'model',
        reason: `a new day (${day} UTC): ${STEP_TEXT.model}`,
      });
      captain.step = 'model';
    }
    return changes;
  }

  private get(name: string): CaptainState {
    const captain = this.captains.get(name);
    if (!captain) throw new Error(`governor: no captain "${name}" in this fleet`);
    return captain;
  }

  /** The tighter of the captain's own cap and the fleet's (a missing cap counts 0). */
  private pressure(captain: CaptainState): Pressure | undefined {
    const options: Pressure[] = [];
    const own = usableCap(captain.spec.budgetUsd);
    if (own !== undefined)
      options.push({ fraction: captain.spent / own, spent: captain.spent, cap: own, fleet: false });
    if (this.fleetCap !== undefined) {
      const spent = this.fleetSpentToday();
      options.push({ fraction: spent / this.fleetCap, spent, cap: this.fleetCap, fleet: true });
    }
    return options.sort((a, b) => b.fraction - a.fraction)[0];
  }

  /** Moves the captain down to where its spending puts it; never back up within a day. */
  private review(captain: CaptainState): LadderChange | undefined {
    const pressure = this.pressure(captain);
    if (!pressure) return undefined;
    const target = targetStep(pressure.fraction, captain.spec, this.thresholds);
    if (RANK[target] <= RANK[captain.step]) return undefined;
    const from = captain.step;
    captain.step = target;
    const who = pressure.fleet ? 'fleet spent' : 'spent';
    const percent = Math.floor(pressure.fraction * 100 + EPSILON);
    const reason = `${who} ${money(pressure.spent)} of ${money(pressure.cap)} today (${percent}%): ${STEP_TEXT[target]}`;
    return { captain: captain.spec.name, from, to: target, reason };
  }

  /** USD left against one cap before the first threshold that would move this captain further down. */
  private room(captain: CaptainState, spent: number, cap: number | undefined): number {
    if (cap === undefined) return Infinity;
    const { fallback, planner, autopilot } = this.thresholds;
    for (const threshold of [fallback, planner, autopilot, 1]) {
      if (spent / cap + EPSILON >= threshold) continue;
      const target = targetStep(threshold, captain.spec, this.thresholds);
      if (RANK[target] > RANK[captain.step]) return threshold * cap - spent;
    }
    return Infinity;
  }
}
