// `skipper bench` in-process (the command is registered on a program with skipper's own root options, as cmd wires
// it): a short grind bench writes results.json, results.md and the runs' sessions; the JSON has both baselines and
// their ratios, and the scores can be recomputed from the session database.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, expect, it, vi } from 'vitest';
import type { BenchResultsJson } from '../../internal/bench/json.js';
import { registerBenchCommand } from '../../internal/cli/bench-command.js';
import { buildReport } from '../../internal/cli/report.js';
import { openStore } from '../../internal/store/index.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function program(): Command {
  // skipper's root options that share names with bench's (commander gives them to the root even after `bench`).
  const root = new Command('skipper')
    .option('--model <id>')
    .option('--seed <n>', 'seed', Number)
    .option('--json')
    .option('--home <dir>');
  root.exitOverride();
  registerBenchCommand(root, { env: () => ({}) });
  return root;
}

it('runs both baselines on the same seed, scores them against the autopilot and keeps the sessions', async () => {
  const out = mkdtempSync(join(tmpdir(), 'skipper-bench-'));
  dirs.push(out);
  const printed: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  await program().parseAsync([
    'node',
    'skipper',
    'bench',
    '--scenario',
    'grind',
    '--ticks',
    '60',
    '--runs',
    '1',
    '--seed',
    '7',
    '--model',
    'builtin/random',
    '--json',
    '--out',
    out,
  ]);
  vi.mocked(process.stdout.write).mockRestore();

  const results = JSON.parse(printed.join('')) as BenchResultsJson;
  expect(results).toEqual(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')));
  expect(results.seed).toBe(7);
  expect(results.models).toEqual(['builtin/random', 'builtin/autopilot']); // --model builtin/random is not run twice
  expect(results.results.map((run) => [run.model, run.seed, run.scenario])).toEqual([
    ['builtin/random', 7, 'grind'],
    ['builtin/autopilot', 7, 'grind'],
  ]);
  for (const run of results.results) expect(run.ticks).toBeGreaterThanOrEqual(60);
  const autopilot = results.scores.find((row) => row.model === 'builtin/autopilot')!;
  const random = results.scores.find((row) => row.model === 'builtin/random')!;
  expect(autopilot.outcome_per_100_ticks).toBeGreaterThan(0);
  expect(autopilot.ratio_to_autopilot).toBe(1);
  expect(random.ratio_to_autopilot).toBeCloseTo(random.outcome_per_100_ticks / autopilot.outcome_per_100_ticks, 10);
  expect(random.ratio_to_autopilot!).toBeLessThan(1);
  expect(autopilot.tool_accuracy).toBe(1);
  expect(random.tool_accuracy!).toBeLessThan(1);
  expect(random.usd_per_1000_credits === null || random.usd_per_1000_credits === 0).toBe(true);

  const markdown = readFileSync(join(out, 'results.md'), 'utf8');
  expect(markdown).toContain('| scenario | model | outcome / 100 ticks | × autopilot |');
  // One run: mean without spread or interval (n/a, never NaN), n 1, no difference to itself.
  expect(markdown).toMatch(
    /\| grind \| builtin\/autopilot \| [\d.]+ \| 1\.00× \| [\d.]+ ± n\/a \| n\/a \| 1 \| — \| 100\.0% \|/,
  );

  // Recomputed from the session database: the same calls, failures and final net worth as the run reported.
  const store = await openStore({ path: join(out, 'skipper.db') });
  try {
    for (const run of results.results) {
      const report = await buildReport(store, run.session_name);
      expect(report.session.model).toBe(run.model);
      expect(report.toolCalls).toBe(run.tool_calls);
      expect(report.failedCalls).toBe(run.failed_calls);
      // Credits are the game's; net worth counts the hold at the market bids the session saw (the game's own
      // net_worth at base prices differs once a market was seen).
      expect(report.points.at(-1)?.credits).toBe(run.credits_end);
      if (report.netWorthPricing === 'price-table') expect(report.points.at(-1)?.netWorth).toBe(run.net_worth_end);
    }
  } finally {
    await store.close();
  }
});

it('refuses an unknown scenario before playing anything', async () => {
  const out = mkdtempSync(join(tmpdir(), 'skipper-bench-'));
  dirs.push(out);
  await expect(
    program().parseAsync(['node', 'skipper', 'bench', '--scenario', 'mining', '--out', out]),
  ).rejects.toThrow(/unknown scenario "mining": use grind, trade, explore or all/);
});

it('--runs 5 --json: each model has mean, sd, ci95_low, ci95_high, n and its paired difference to the autopilot', async () => {
  const out = mkdtempSync(join(tmpdir(), 'skipper-bench-runs-'));
  dirs.push(out);
  const printed: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const args = ['bench', '--scenario', 'grind', '--ticks', '60', '--runs', '5', '--seed', '3'];
  await program().parseAsync(['node', 'skipper', ...args, '--model', 'builtin/random', '--json', '--out', out]);
  vi.mocked(process.stdout.write).mockRestore();

  const results = JSON.parse(printed.join('')) as BenchResultsJson;
  expect(results.results).toHaveLength(10);
  const autopilot = results.scores.find((row) => row.model === 'builtin/autopilot')!;
  const random = results.scores.find((row) => row.model === 'builtin/random')!;
  for (const row of [autopilot, random]) {
    expect(row.n).toBe(5);
    expect(typeof row.mean).toBe('number');
    expect(typeof row.sd).toBe('number');
    expect(row.ci95_low!).toBeLessThanOrEqual(row.mean!);
    expect(row.ci95_high!).toBeGreaterThanOrEqual(row.mean!);
    // The mean is of the runs' own outcomes.
    const outcomes = results.results
      .filter((run) => run.model === row.model)
      .map((run) => ((run.net_worth_end - run.net_worth_start) / run.ticks) * 100);
    expect(row.mean!).toBeCloseTo(outcomes.reduce((a, b) => a + b, 0) / outcomes.length, 6);
  }
  expect(autopilot.diff_vs_baseline).toBeNull();
  expect(random.diff_vs_baseline).toMatchObject({ n: 5 });
  const difference = random.diff_vs_baseline!;
  expect(difference.mean!).toBeCloseTo(random.mean! - autopilot.mean!, 6); // every seed paired
  expect(difference.ci95_low!).toBeLessThanOrEqual(difference.mean!);
  expect(difference.ci95_high!).toBeGreaterThanOrEqual(difference.mean!);
  // Five worlds spread the autopilot's gain; random play loses to it on every one: the interval is below 0.
  expect(autopilot.sd!).toBeGreaterThan(0);
  expect(autopilot.ci95_low!).toBeLessThan(autopilot.ci95_high!);
  expect(difference.ci95_high!).toBeLessThan(0);
  expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| mean ± sd | 95% CI | n | Δ autopilot [95% CI] |');
}, 60_000);
