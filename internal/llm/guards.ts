// Stop rules for a turn, as small predicates over the turn's running state (rules 10, 11), plus the canonical
// call key the loop guard counts (its cycle detector is call-cycle.ts). A rule returns why the turn stops, or
// undefined to go on. The predicate type and the budget check are shared with autoplay's stop rules
// (internal/session), so both stop for the same reasons.
import type { TurnOutcome, Usage } from '../shared/index.js';
import { cycleText, type CallCycle } from './call-cycle.js';

export type { TurnOutcome };

/** A stop condition over a running state `S`: why to stop (`R`), or undefined to go on. */
export type StopPredicate<S, R> = (state: S) => R | undefined;

export interface TurnState {
  /** Rounds completed so far. */
  rounds: number;
  /** This turn's usage. */
  usage: Usage;
  consecutiveFailures: number;
  /** The most repeated (call, result) pair of the turn. */
  topRepeat?: { name: string; count: number; text: string };
  /** The first cycle of calls (results ignored) found repeated at the tail of the turn's calls, see findCycle. */
  cycle?: CallCycle;
  lastError?: string;
}

export interface Stop {
  outcome: Exclude<TurnOutcome, 'answered' | 'cancelled'>;
  error?: string;
  nudge?: string;
}

export type StopRule = StopPredicate<TurnState, Stop>;

export interface Budget {
  tokens?: number;
  usd?: number;
  /** Spent before this turn (the session so far). */
  spent?: Usage;
}

/** Which limit of a budget ran out, with what was used against it. */
export interface BudgetOverrun {
  unit: 'tokens' | 'usd';
  used: number;
  limit: number;
}

/** The one budget check, for turns and sessions alike: `budget.spent` (before) plus `usage` (since), tokens first. */
export function budgetOverrun(budget: Budget, usage: Usage): BudgetOverrun | undefined {
  const spent = budget.spent;
  const tokens = (spent ? usageTokens(spent) : 0) + usageTokens(usage);
  const usd = (spent?.costUsd ?? 0) + usage.costUsd;
  if (budget.tokens !== undefined && tokens >= budget.tokens)
    return { unit: 'tokens', used: tokens, limit: budget.tokens };
  if (budget.usd !== undefined && usd >= budget.usd) return { unit: 'usd', used: usd, limit: budget.usd };
  return undefined;
}

/** Tokens a usage counts against a budget (prompt and completion). */
export function usageTokens(usage: Usage): number {
  return usage.promptTokens + usage.completionTokens;
}

/** A session limit (autoplay's --max-ticks, --duration) reached during the turn: no further round, so no action past it. */
export function sessionLimit(reached: () => string | undefined): StopRule {
  return () => {
    const why = reached();
    return why ? { outcome: 'limit_reached', error: why } : undefined;
  };
}

export function maxRounds(limit: number): StopRule {
  return (state) =>
    state.rounds >= limit
      ? {
          outcome: 'round_limit',
          error: `stopped after ${limit} rounds without a final answer`,
          nudge: `Your last turn used all ${limit} rounds without finishing. Make fewer calls per step and answer when done.`,
        }
      : undefined;
}

export function budgetExceeded(budget: Budget): StopRule {
  return (state) => {
    const overrun = budgetOverrun(budget, state.usage);
    if (!overrun) return undefined;
    const error =
      overrun.unit === 'tokens'
        ? `token budget used: ${overrun.used} of ${overrun.limit}`
        : `cost budget used: $${overrun.used.toFixed(4)} of $${overrun.limit}`;
    return { outcome: 'budget_exceeded', error };
  };
}

/** Rule 11: the same call with the same result `threshold` times, or a cycle of calls going round (call-cycle.ts). */
export function loopDetected(threshold = 3): StopRule {
  return (state) => {
    const repeat = state.topRepeat;
    if (repeat && repeat.count >= threshold) {
      return {
        outcome: 'loop_detected',
        error: `${repeat.name} was called ${repeat.count} times with the same arguments and gave the same result`,
        nudge:
          `Your last turn was stopped: you called ${repeat.name} ${repeat.count} times with the same arguments and ` +
          'got the same result each time. Repeating it will not change anything: read that result and do something different.',
      };
    }
    const cycle = state.cycle;
    if (!cycle) return undefined;
    const what = cycleText(cycle);
    return {
      outcome: 'loop_detected',
      error: `the same calls went round in a cycle: ${what} repeated ${cycle.repeats} times in a row`,
      nudge: cycle.sameAction
        ? `Your last turn was stopped after ${what} repeated ${cycle.repeats} times in a row. If each time still got ` +
          'you somewhere (ore into the hold, closer to arrival), go on; if not, read the last results and change approach.'
        : `Your last turn was stopped: ${what} repeated ${cycle.repeats} times in a row, going round in a circle. ` +
          'Going round again will not get you anywhere: read the last results and do something different.',
    };
  };
}

export function tooManyFailures(limit = 5): StopRule {
  return (state) =>
    state.consecutiveFailures >= limit
      ? {
          outcome: 'failed',
          error: `${state.consecutiveFailures} tool calls failed in a row; last error: ${state.lastError ?? 'unknown'}`,
          nudge: `Your last ${state.consecutiveFailures} tool calls all failed. Read the errors and change your approach.`,
        }
      : undefined;
}

/** The first rule that says stop, in order. */
export function firstStop<S, R>(rules: ReadonlyArray<StopPredicate<S, R>>, state: S): R | undefined {
  for (const rule of rules) {
    const stop = rule(state);
    if (stop) return stop;
  }
  return undefined;
}

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` make the same key. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
