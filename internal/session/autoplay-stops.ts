// Why autoplay stops, as data: the stop rules (small predicates over autoplay's progress, the same StopPredicate
// type a turn's guards use, and the same budget check) and the one function that words a stop reason for people.
import { budgetOverrun, type BudgetOverrun, type StopPredicate } from '../llm/index.js';
import type { Usage } from '../shared/index.js';

export type StopReason =
  | { kind: 'max-turns'; limit: number }
  | { kind: 'max-ticks'; limit: number }
  | { kind: 'duration'; limitMs: number }
  /** With `overrun`, autoplay's own check between turns found it; without, a turn stopped on the budget. */
  | { kind: 'budget'; overrun?: BudgetOverrun }
  | { kind: 'interrupted' }
  | { kind: 'failures'; turns: number; last: string };

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
    p.turns >= n ? { kind: 'max-turns', limit: n } : undefined;
export const maxTicks =
  (n: number): AutoplayStopRule =>
  (p) =>
    p.startTick !== undefined && p.tick !== undefined && p.tick - p.startTick >= n
      ? { kind: 'max-ticks', limit: n }
      : undefined;
export const maxDuration =
  (ms: number, now: () => number): AutoplayStopRule =>
  (p) =>
    now() - p.startedAt >= ms ? { kind: 'duration', limitMs: ms } : undefined;
export const budgetTokens = (n: number): AutoplayStopRule => budgetRule({ tokens: n });
export const budgetUsd = (usd: number): AutoplayStopRule => budgetRule({ usd });

/** Autoplay's budget counts what this run spent (usage since it started), with the check a turn uses. */
function budgetRule(limit: { tokens?: number; usd?: number }): AutoplayStopRule {
  return (p) => {
    const overrun = budgetOverrun(limit, subtractUsage(p.usage, p.startUsage));
    return overrun ? { kind: 'budget', overrun } : undefined;
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
  switch (reason.kind) {
    case 'max-turns':
      return `reached --max-turns ${reason.limit}`;
    case 'max-ticks':
      return `reached --max-ticks ${reason.limit}`;
    case 'duration':
      return 'reached --duration';
    case 'budget':
      if (!reason.overrun) return 'budget spent';
      return reason.overrun.unit === 'tokens'
        ? `token budget of ${reason.overrun.limit} spent`
        : `budget of $${reason.overrun.limit} spent`;
    case 'interrupted':
      return 'interrupted';
    case 'failures':
      return `${reason.turns} turns in a row failed (last: ${reason.last})`;
  }
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
