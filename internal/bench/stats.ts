// Scores with error bars: the mean of a model's per-run (or per-session) scores, their spread, a 95 % interval by
// bootstrap (percentile method) and the paired difference against the baseline on the same seeds or sessions. Agent
// scores swing widely across seeds, so a figure without its spread and sample count misleads. The resampling draws
// from the seeded generator of internal/spacemolt, so the same scores and seed give the same interval on every
// machine. Fields are named as they are written in --json (snake_case); n < 2 gives a null interval, never NaN.
import { createRng, hashString } from '../spacemolt/index.js';

/** Resamples per interval: enough for the 2.5 % and 97.5 % percentiles to settle to ~2 digits. */
export const BOOTSTRAP_RESAMPLES = 2000;

export interface Estimate {
  /** null without any score. */
  mean: number | null;
  /** Sample standard deviation (n − 1); null below two scores. */
  sd: number | null;
  /** The bootstrap 95 % interval of the mean; null below two scores (one score says nothing of its spread). */
  ci95_low: number | null;
  ci95_high: number | null;
  n: number;
}

export type PairedDifference = Omit<Estimate, 'sd'>;

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function standardDeviation(values: readonly number[]): number | null {
  const average = mean(values);
  if (average === null || values.length < 2) return null;
  const squares = values.reduce((sum, value) => sum + (value - average) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}

/** The q-quantile of sorted values, interpolated linearly between neighbours. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const low = sorted[below]!;
  const high = sorted[Math.min(below + 1, sorted.length - 1)]!;
  return low + (high - low) * (at - below);
}

/**
 * The percentile bootstrap 95 % interval of the mean of `values`: `resamples` resamples with replacement, each's
 * mean, their 2.5 % and 97.5 % quantiles. `seed`: the generator's key (a label's hash, say) for reproducibility.
 */
export function bootstrapInterval(
  values: readonly number[],
  options: { seed: number; resamples?: number },
): { low: number; high: number } | null {
  if (values.length < 2) return null;
  const rng = createRng(options.seed, values.length);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const means: number[] = [];
  for (let draw = 0; draw < resamples; draw++) {
    let sum = 0;
    for (let index = 0; index < values.length; index++) sum += values[Math.floor(rng.next() * values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return { low: quantile(means, 0.025), high: quantile(means, 0.975) };
}

/** A seed for an interval from what it is about (its label) and the bench's seed: reproducible, distinct per row. */
export function intervalSeed(label: string, seed = 0): number {
  return hashString(`${label}\u0000${seed}`);
}

/** Mean, spread, bootstrap 95 % interval and n of one model's scores. */
export function estimate(values: readonly number[], seed: number): Estimate {
  const interval = bootstrapInterval(values, { seed });
  return {
    mean: mean(values),
    sd: standardDeviation(values),
    ci95_low: interval?.low ?? null,
    ci95_high: interval?.high ?? null,
    n: values.length,
  };
}

/**
 * The paired difference model − baseline over the keys (seeds, sessions) both were scored on: its mean, bootstrap
 * 95 % interval (resampling the pairs) and n. Keys only one of them has are left out (a pair needs both).
 */
export function pairedDifference(
  model: ReadonlyMap<string | number, number>,
  baseline: ReadonlyMap<string | number, number>,
  seed: number,
): PairedDifference {
  const differences: number[] = [];
  for (const [key, value] of model) {
    const other = baseline.get(key);
    if (other !== undefined) differences.push(value - other);
  }
  const { mean: average, ci95_low, ci95_high, n } = estimate(differences, seed);
  return { mean: average, ci95_low, ci95_high, n };
}
