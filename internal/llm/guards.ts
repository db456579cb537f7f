// Stop rules for a turn, as small predicates over the turn's running state (rules 10, 11), plus the canonical
// call key the loop guard counts. A rule returns why the turn stops, or undefined to go on.
import type { Usage } from '../shared/index.js';

export type TurnOutcome = 'answered' | 'round-limit' | 'loop-detected' | 'budget-exceeded' | 'cancelled' | 'failed';

export interface TurnState {
  /** Rounds completed so far. */
  rounds: number;
  /** This turn's usage. */
  usage: Usage;
  consecutiveFailures: number;
  /** The most repeated (call, result) pair of the turn. */
  topRepeat?: { name: string; count: number; text: string };
  lastError?: string;
}

export interface Stop {
  outcome: Exclude<TurnOutcome, 'answered' | 'cancelled'>;
  error?: string;
  nudge?: string;
}

export type StopRule = (state: TurnState) => Stop | undefined;

export interface Budget {
  tokens?: number;
  usd?: number;
  /** Spent before this turn (the session so far). */
  spent?: Usage;
}

export function maxRounds(limit: number): StopRule {
  return (state) =>
    state.rounds >= limit
      ? {
          outcome: 'round-limit',
          error: `stopped after ${limit} rounds without a final answer`,
          nudge: `Your last turn used all ${limit} rounds without finishing. Make fewer calls per step and answer when done.`,
        }
      : undefined;
}

export function budgetExceeded(budget: Budget): StopRule {
  return (state) => {
    const spent = budget.spent;
    const tokens =
      (spent ? spent.promptTokens + spent.completionTokens : 0) + state.usage.promptTokens + state.usage.completionTokens;
    const usd = (spent?.costUsd ?? 0) + state.usage.costUsd;
    if (budget.tokens !== undefined && tokens >= budget.tokens) {
      return { outcome: 'budget-exceeded', error: `token budget used: ${tokens} of ${budget.tokens}` };
    }
    if (budget.usd !== undefined && usd >= budget.usd) {
      return { outcome: 'budget-exceeded', error: `cost budget used: $${usd.toFixed(4)} of $${budget.usd}` };
    }
    return undefined;
  };
}

export function loopDetected(threshold = 3): StopRule {
  return (state) => {
    const repeat = state.topRepeat;
    if (!repeat || repeat.count < threshold) return undefined;
    return {
      outcome: 'loop-detected',
      error: `${repeat.name} was called ${repeat.count} times with the same arguments and gave the same result`,
      nudge:
        `Your last turn was stopped: you called ${repeat.name} ${repeat.count} times with the same arguments and ` +
        'got the same result each time. Repeating it will not change anything: read that result and do something different.',
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

export function firstStop(rules: StopRule[], state: TurnState): Stop | undefined {
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
