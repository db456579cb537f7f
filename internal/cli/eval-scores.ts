// The error bars of `skipper eval`: each model's agreement per session as a mean with its spread, a seeded bootstrap
// 95 % interval over sessions and n, and the paired difference against the baseline model on the same sessions.
// Sessions without a decision point say nothing of agreement and are left out of the figures.
import { estimate, intervalSeed, pairedDifference, type Estimate, type PairedDifference } from '../bench/index.js';
import type { CounterfactualTotals } from '../store/index.js';
import { agreement } from './counterfactual.js';

/** The model every other is compared with, when --with names it. */
export const EVAL_BASELINES = ['builtin/autopilot', 'builtin/random'] as const;

export interface EvalScoreRow {
  model: string;
  /** Where the session lives and its name: one key per session across homes. */
  key: string;
  totals: CounterfactualTotals;
}

export interface EvalScore extends Estimate {
  model: string;
  diff_vs_baseline: PairedDifference | null;
}

/** The first of EVAL_BASELINES that is among the models; undefined when none is. */
export function evalBaseline(models: readonly string[]): string | undefined {
  return EVAL_BASELINES.find((baseline) => models.includes(baseline));
}

function agreements(rows: readonly EvalScoreRow[], model: string): Map<string, number> {
  return new Map(
    rows
      .filter((row) => row.model === model && row.totals.decisions > 0)
      .map((row) => [row.key, agreement(row.totals)]),
  );
}

/** One model's agreement over sessions, with its difference to the baseline (null for the baseline itself). */
export function evalScore(rows: readonly EvalScoreRow[], model: string, baseline: string | undefined): EvalScore {
  const mine = agreements(rows, model);
  return {
    model,
    ...estimate([...mine.values()], intervalSeed(`eval/${model}`)),
    diff_vs_baseline:
      baseline === undefined || baseline === model
        ? null
        : pairedDifference(mine, agreements(rows, baseline), intervalSeed(`eval/${model}-${baseline}`)),
  };
}

const percent = (value: number | null): string => (value === null ? 'n/a' : `${(100 * value).toFixed(1)}%`);
const points = (value: number | null): string =>
  value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${(100 * value).toFixed(1)} pts`;
const interval = (low: number | null, high: number | null): string =>
  low === null || high === null ? 'n/a' : `[${percent(low)}, ${percent(high)}]`;

/** The Markdown table of every model's agreement per session with its error bars. */
export function evalScoreTable(scores: readonly EvalScore[], baseline: string | undefined): string[] {
  return [
    '### agreement per session, all models',
    '',
    `| model | mean | sd | 95% CI | n | Δ ${baseline ?? 'baseline'} | Δ 95% CI | pairs |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...scores.map((score) => {
      const diff = score.diff_vs_baseline;
      return (
        `| ${score.model} | ${percent(score.mean)} | ${percent(score.sd)} | ${interval(score.ci95_low, score.ci95_high)} | ${score.n} | ` +
        `${diff ? points(diff.mean) : '—'} | ${diff ? interval(diff.ci95_low, diff.ci95_high) : '—'} | ${diff ? diff.n : '—'} |`
      );
    }),
    '',
    'mean, sd and the 95 % interval (bootstrap over sessions, seeded) are of each session’s agreement; Δ is the paired ' +
      `difference to ${baseline ?? 'a baseline (builtin/autopilot or builtin/random, when --with names one)'} on the same sessions.`,
    '',
  ];
}
