// Why autoplay stops, as data: the stop rules (small predicates over autoplay's progress, the same StopPredicate
// type a turn's guards use, and the same budget check), the one function that words a stop reason for people and
// the `stop_reason` object every --json writes. Codes are the shared StopCode union (shared/vocabulary.ts).
import { budgetOverrun, type BudgetOverrun, type StopPredicate } from '../llm/index.js';
import type { StopReasonJson, Usage } from '../shared/index.js';

export type StopReason =
  | { code: 'max_turns'; limit: number }
  | { code: 'max_ticks'; limit: number }
  | { code: 'duration'; limitMs: number }
  /** With `overrun`, autoplay's own check between turns found it; without, a turn stopped on the budget. */
  | { code: 'budget_exceeded'; overrun?: BudgetOverrun }
  | { code: 'cancelled' }
  | { code: 'failures'; turns: number; last: string };

export interface AutoplayLimits {
  maxTicks?: number;
  maxTurns?: number;
  durationMs?: number;
  budgetUsd?: number;
  budgetTokens?: number;
}

export interface AutoplayProgress {
  turns: number;
  startedAt: number;
  startTick: number | undefined;
  tick: number | undefined;
  usage: Usage;
  startUsage: Usage;
}

export type AutoplayStopRule = StopPredicate<AutoplayProgress, StopReason>;

export const maxTurns =
  (n: number): AutoplayStopRule =>
  (p) =>
    p.turns >= n ? { code: 'max_turns', limit: n } : undefined;
export const maxTicks =
  (n: number): AutoplayStopRule =>
  (p) =>
    p.startTick !== undefined && p.tick !== undefined && p.tick - p.startTick >= n
      ? { code: 'max_ticks', limit: n }
      : undefined;
export const maxDuration =
  (ms: number, now: () => number): AutoplayStopRule =>
  (p) =>
    now() - p.startedAt >= ms ? { code: 'duration', limitMs: ms } : undefined;
export const budgetTokens = (n: number): AutoplayStopRule => budgetRule({ tokens: n });
export const budgetUsd = (usd: number): AutoplayStopRule => budgetRule({ usd });

/** Autoplay's budget counts what this run spent (usage since it started), with the check a turn uses. */
function budgetRule(limit: { tokens?: number; usd?: number }): AutoplayStopRule {
  return (p) => {
    const overrun = budgetOverrun(limit, subtractUsage(p.usage, p.startUsage));
    return overrun ? { code: 'budget_exceeded', overrun } : undefined;
  };
}

export function stopRules(limits: AutoplayLimits, now: () => number = Date.now): AutoplayStopRule[] {
  const rules: AutoplayStopRule[] = [];
  if (limits.maxTurns !== undefined) rules.push(maxTurns(limits.maxTurns));
  if (limits.maxTicks !== undefined) rules.push(maxTicks(limits.maxTicks));
  if (limits.durationMs !== undefined) rules.push(maxDuration(limits.durationMs, now));
  if (limits.budgetTokens !== undefined) rules.push(budgetTokens(limits.budgetTokens));
  if (limits.budgetUsd !== undefined) rules.push(budgetUsd(limits.budgetUsd));
  return rules;
}

/** The words people (and --json's `stop_reason`) see for a stop reason. */
export function stopReasonText(reason: StopReason): string {
  switch (reason.code) {
    case 'max_turns':
      return `reached --max-turns ${reason.limit}`;
    case 'max_ticks':
      return `reached --max-ticks ${reason.limit}`;
    case 'duration':
      return 'reached --duration';
    case 'budget_exceeded':
      if (!reason.overrun) return 'budget spent';
      return reason.overrun.unit === 'tokens'
        ? `token budget of ${reason.overrun.limit} spent`
        : `budget of $${reason.overrun.limit} spent`;
    case 'cancelled':
      return 'interrupted';
    case 'failures':
      return `${reason.turns} turns in a row failed (last: ${reason.last})`;
  }
}

/** The number a stop reason's limit set: turns, ticks, milliseconds of --duration, tokens or dollars of the budget. */
function stopLimit(reason: StopReason): number | undefined {
  switch (reason.code) {
    case 'max_turns':
    case 'max_ticks':
      return reason.limit;
    case 'duration':
      return reason.limitMs;
    case 'budget_exceeded':
      return reason.overrun?.limit;
    default:
      return undefined;
  }
}

/** `stop_reason` in every --json output: the code (a StopCode, checked here), the limit when there is one, the words. */
export function stopReasonJson(reason: StopReason): StopReasonJson {
  const limit = stopLimit(reason);
  return { code: reason.code, ...(limit !== undefined ? { limit } : {}), text: stopReasonText(reason) };
}

export function subtractUsage(a: Usage, b: Usage): Usage {
  return {
    promptTokens: a.promptTokens - b.promptTokens,
    completionTokens: a.completionTokens - b.completionTokens,
    cachedTokens: a.cachedTokens - b.cachedTokens,
    reasoningTokens: (a.reasoningTokens ?? 0) - (b.reasoningTokens ?? 0),
    costUsd: a.costUsd - b.costUsd,
    ...(a.priced === false ? { priced: false } : {}),
  };
}
