// Bench scoring math: per-100-tick outcomes, tool accuracy, USD per 1,000 credits (zero and negative gains),
// ratios to the autopilot, medians, grouping of runs, the Markdown table.
import { describe, expect, it } from 'vitest';
import {
  formatRatio,
  invalidCallCount,
  markdownTable,
  median,
  per100Ticks,
  ratioTo,
  runOutcome,
  scoreRuns,
  toolAccuracy,
  usdPer1000Credits,
  type RunFigures,
} from '../../../internal/bench/score.js';

const usage = (costUsd = 0, promptTokens = 0, completionTokens = 0) => ({
  promptTokens,
  completionTokens,
  cachedTokens: 0,
  costUsd,
});

function run(overrides: Partial<RunFigures> = {}): RunFigures {
  return {
    scenario: 'grind',
    model: 'builtin/autopilot',
    ticks: 200,
    netWorthStart: 150,
    netWorthEnd: 150,
    systemsBeforeDeath: 0,
    deaths: 0,
    leaks: 0,
    toolCalls: 10,
    successfulCalls: 10,
    invalidCalls: 0,
    usage: usage(),
    wallMs: 1000,
    tickUtilisation: 1,
    ...overrides,
  };
}

describe('scoring helpers', () => {
  it('scales to 100 ticks and gives 0 when no tick passed', () => {
    expect(per100Ticks(500, 200)).toBe(250);
    expect(per100Ticks(-30, 300)).toBe(-10);
    expect(per100Ticks(500, 0)).toBe(0);
  });

  it('tool accuracy is successful ÷ attempted, null without attempts', () => {
    expect(toolAccuracy(3, 4)).toBe(0.75);
    expect(toolAccuracy(0, 0)).toBeNull();
  });

  it('USD per 1,000 credits: null when nothing (or less than nothing) was gained, 0 when free', () => {
    expect(usdPer1000Credits(0.5, 2000)).toBe(0.25);
    expect(usdPer1000Credits(0.5, 0)).toBeNull();
    expect(usdPer1000Credits(0.5, -100)).toBeNull();
    expect(usdPer1000Credits(0, 500)).toBe(0);
  });

  it('ratio to a baseline, null when the baseline is not positive or missing', () => {
    expect(ratioTo(50, 200)).toBe(0.25);
    expect(ratioTo(-50, 200)).toBe(-0.25);
    expect(ratioTo(50, 0)).toBeNull();
    expect(ratioTo(50, -3)).toBeNull();
    expect(ratioTo(50, undefined)).toBeNull();
  });

  it('formats small ratios with significant digits', () => {
    expect(formatRatio(1)).toBe('1.00');
    expect(formatRatio(0.0083)).toBe('0.0083');
    expect(formatRatio(-0.0016)).toBe('-0.0016');
    expect(formatRatio(0)).toBe('0.00');
  });

  it('median of odd, even and empty lists', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });

  it('counts invalid calls from invalid_params, invalid_arguments and unknown_tool only', () => {
    expect(invalidCallCount({ invalid_params: 2, unknown_tool: 1, invalid_arguments: 3, not_docked: 40 })).toBe(6);
  });

  it('outcome per scenario: net-worth gain for grind/trade, systems before death for explore', () => {
    expect(runOutcome(run({ netWorthEnd: 550 }))).toBe(200);
    expect(runOutcome(run({ scenario: 'trade', netWorthStart: 2000, netWorthEnd: 1900 }))).toBe(-50);
    expect(runOutcome(run({ scenario: 'explore', systemsBeforeDeath: 3, netWorthEnd: 99_999 }))).toBe(1.5);
  });
});

describe('scoreRuns', () => {
  const runs: RunFigures[] = [
    run({ netWorthEnd: 150 + 400 }), // 200 / 100 ticks
    run({ netWorthEnd: 150 + 800 }), // 400
    run({ netWorthEnd: 150 + 600 }), // 300
    run({ model: 'builtin/random', netWorthEnd: 150 + 20, toolCalls: 10, successfulCalls: 4, invalidCalls: 2 }),
    run({
      model: 'builtin/random',
      netWorthEnd: 150 - 10,
      toolCalls: 10,
      successfulCalls: 6,
      invalidCalls: 1,
      deaths: 1,
    }),
    run({
      model: 'openai/x',
      netWorthEnd: 150 + 300,
      usage: usage(0.3, 1000, 200),
      toolCalls: 8,
      successfulCalls: 7,
      leaks: 1,
    }),
  ];
  const rows = scoreRuns(runs);
  const row = (model: string) => rows.find((r) => r.model === model)!;

  it('takes the median outcome and states every model as a ratio to the autopilot', () => {
    expect(row('builtin/autopilot').outcomePer100Ticks).toBe(300);
    expect(row('builtin/autopilot').ratioToAutopilot).toBe(1);
    expect(row('builtin/random').outcomePer100Ticks).toBe(2.5); // median of 10 and −5
    expect(row('builtin/random').ratioToAutopilot).toBeCloseTo(2.5 / 300, 10);
    expect(row('openai/x').ratioToAutopilot).toBe(0.5);
  });

  it('totals counts over runs and computes accuracy over all attempts', () => {
    const random = row('builtin/random');
    expect(random.runs).toBe(2);
    expect(random.toolAccuracy).toBe(0.5);
    expect(random.invalidCalls).toBe(3);
    expect(random.deaths).toBe(1);
    expect(random.netWorthChange).toBe(10);
    const model = row('openai/x');
    expect(model.tokens).toBe(1200);
    expect(model.usdPer1000Credits).toBeCloseTo(1, 10); // $0.30 for 300 credits
    expect(model.leaks).toBe(1);
  });

  it('has no ratio when the autopilot did not gain', () => {
    const flat = scoreRuns([run(), run({ model: 'builtin/random', netWorthEnd: 200 })]);
    expect(flat.every((r) => r.ratioToAutopilot === null)).toBe(true);
  });

  it('orders by scenario, best outcome first, and renders one Markdown row per model', () => {
    expect(rows.map((r) => r.model)).toEqual(['builtin/autopilot', 'openai/x', 'builtin/random']);
    const table = markdownTable(rows);
    expect(table).toHaveLength(2 + 3);
    expect(table[0]).toContain('| × autopilot | mean ± sd | 95% CI | n | Δ autopilot [95% CI] | tool accuracy |');
    expect(table[2]).toMatch(
      /^\| grind \| builtin\/autopilot \| 300\.0 \| 1\.00× \| 300\.0 ± 100\.0 \| \[[\d.]+, [\d.]+\] \| 3 \| — \| 100\.0% \|/,
    );
    expect(table[3]).toContain('0.50×');
    // One run: its interval is not defined (n/a), never NaN.
    expect(table[3]).toContain('| 150.0 ± n/a | n/a | 1 | -50.0 n/a |');
    expect(table[4]).toContain('| 50.0% | 3 | 1 |');
    expect(table.join('\n')).not.toContain('NaN');
  });

  it('gives each model its mean, spread, 95 % interval, n and paired difference to the autopilot', () => {
    const autopilot = row('builtin/autopilot');
    expect(autopilot).toMatchObject({ mean: 300, n: 3, diff_vs_baseline: null });
    expect(autopilot.sd).toBeCloseTo(100, 10);
    expect(autopilot.ci95_low!).toBeGreaterThanOrEqual(200);
    expect(autopilot.ci95_low!).toBeLessThan(300);
    expect(autopilot.ci95_high!).toBeGreaterThan(300);
    expect(autopilot.ci95_high!).toBeLessThanOrEqual(400);
    // The same scores give the same interval (seeded resampling).
    expect(scoreRuns(runs).find((r) => r.model === 'builtin/autopilot')!.ci95_low).toBe(autopilot.ci95_low);
    // Runs without seeds pair by order: random's 10 and −5 against the autopilot's 200 and 400.
    const random = row('builtin/random');
    expect(random.diff_vs_baseline).toMatchObject({ mean: (10 - 200 + (-5 - 400)) / 2, n: 2 });
    const model = row('openai/x');
    expect(model).toMatchObject({ mean: 150, sd: null, ci95_low: null, ci95_high: null, n: 1 });
    expect(model.diff_vs_baseline).toEqual({ mean: -50, ci95_low: null, ci95_high: null, n: 1 });
  });

  it('pairs runs by their seed when they carry one', () => {
    const seeded = scoreRuns([
      run({ seed: 1, netWorthEnd: 150 + 200 }),
      run({ seed: 2, netWorthEnd: 150 + 400 }),
      run({ model: 'builtin/random', seed: 2, netWorthEnd: 150 + 300 }),
      run({ model: 'builtin/random', seed: 1, netWorthEnd: 150 + 100 }),
    ]);
    const random = seeded.find((r) => r.model === 'builtin/random')!;
    // seed 1: 50 − 100, seed 2: 150 − 200 → both −50: the interval has no width.
    expect(random.diff_vs_baseline).toEqual({ mean: -50, ci95_low: -50, ci95_high: -50, n: 2 });
  });
});
