// Scores with error bars: the bootstrap interval of a mean on known data — it holds the mean, narrows as n grows, is
// the same for the same seed, and is null (not NaN) for a single score; the paired difference uses only pairs.
import { describe, expect, it } from 'vitest';
import { bootstrapInterval, estimate, pairedDifference, standardDeviation } from '../../../internal/bench/stats.js';
import { createSeededRng } from '../../../internal/spacemolt/rng.js';

/** n draws of a skewed score (most runs near 100, a few big wins), from a seeded generator. */
function scores(n: number, seed = 7): number[] {
  const rng = createSeededRng(seed);
  return Array.from({ length: n }, () => 100 + 40 * (rng.next() - 0.5) + (rng.chance(0.1) ? 300 : 0));
}

describe('bootstrap interval of the mean', () => {
  it('contains the mean of known data', () => {
    const values = [2, 4, 4, 4, 5, 5, 7, 9];
    const result = estimate(values, 1);
    expect(result.mean).toBe(5);
    expect(result.sd).toBeCloseTo(2.138, 3);
    expect(result.n).toBe(8);
    expect(result.ci95_low!).toBeLessThan(5);
    expect(result.ci95_high!).toBeGreaterThan(5);
    // Inside the data's range: a mean of resamples cannot leave it.
    expect(result.ci95_low!).toBeGreaterThanOrEqual(2);
    expect(result.ci95_high!).toBeLessThanOrEqual(9);
  });

  it('narrows as n grows', () => {
    const width = (n: number): number => {
      const interval = bootstrapInterval(scores(n), { seed: 3 })!;
      return interval.high - interval.low;
    };
    const [small, medium, large] = [width(10), width(100), width(1000)];
    expect(medium).toBeLessThan(small);
    expect(large).toBeLessThan(medium);
    // Roughly as 1/√n: ten times the runs, about a third of the width.
    expect(large / medium).toBeGreaterThan(0.2);
    expect(large / medium).toBeLessThan(0.5);
  });

  it('is reproducible: the same scores and seed give the same interval, another seed nearly the same', () => {
    const values = scores(30);
    expect(bootstrapInterval(values, { seed: 11 })).toEqual(bootstrapInterval(values, { seed: 11 }));
    const other = bootstrapInterval(values, { seed: 12 })!;
    const first = bootstrapInterval(values, { seed: 11 })!;
    expect(other).not.toEqual(first);
    expect(Math.abs(other.low - first.low)).toBeLessThan((first.high - first.low) * 0.2);
  });

  it('gives a null interval and spread for one score, and a null mean for none — never NaN', () => {
    expect(estimate([42], 1)).toEqual({ mean: 42, sd: null, ci95_low: null, ci95_high: null, n: 1 });
    expect(estimate([], 1)).toEqual({ mean: null, sd: null, ci95_low: null, ci95_high: null, n: 0 });
    expect(standardDeviation([42])).toBeNull();
    expect(bootstrapInterval([42], { seed: 1 })).toBeNull();
  });
});

describe('paired difference against the baseline', () => {
  it('pairs by key and leaves out keys only one side has', () => {
    const model = new Map([
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 99],
    ]);
    const baseline = new Map([
      [1, 8],
      [2, 17],
      [3, 29],
    ]);
    const difference = pairedDifference(model, baseline, 5);
    expect(difference.n).toBe(3);
    expect(difference.mean).toBeCloseTo((2 + 3 + 1) / 3, 10);
    expect(difference.ci95_low!).toBeGreaterThanOrEqual(1);
    expect(difference.ci95_high!).toBeLessThanOrEqual(3);
    expect(pairedDifference(new Map([[1, 5]]), new Map([[2, 5]]), 5)).toEqual({
      mean: null,
      ci95_low: null,
      ci95_high: null,
      n: 0,
    });
  });
});
