// Issue 50: `skipper bench --suite standard` — fixed minimolt worlds, scenarios, seeds and tick counts, versioned —
// writes a results file with what comparing two runs on two machines needs; a flag that would change the suite is
// a usage error.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../fakes/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'skipper-suite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('skipper bench --suite standard', () => {
  it('refuses a flag the suite fixes', async () => {
    const cli = runCli(['bench', '--suite', 'standard', '--ticks', '10', '--out', join(dir, 'refused')], {
      home: join(dir, 'home'),
    });
    expect((await cli.exited).code).toBe(2);
    expect(cli.stderr()).toMatch(/--suite standard fixes .* leave out --ticks/);
  });

  it('plays the fixed set and writes what two machines compare', async () => {
    const out = join(dir, 'out');
    const cli = runCli(['bench', '--suite', 'standard', '--json', '--out', out], { home: join(dir, 'home') });
    expect((await cli.exited).code, cli.stderr()).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      suite: { name: string; version: number; seed: number; runs: number; ticks: number };
      machine: { node: string; cpus: number };
      results: Array<{ scenario: string; model: string; seed: number; ticks: number }>;
      scores: Array<{ model: string; n: number; mean: number | null; ci95_low: number | null }>;
    };
    expect(results.suite).toMatchObject({ name: 'standard', version: 1, seed: 1001, runs: 5, ticks: 200 });
    expect(results.machine.node).toBe(process.version);
    expect(results.machine.cpus).toBeGreaterThan(0);
    // Every scenario, both baselines, seeds 1001–1005, each run the suite's ticks.
    expect(new Set(results.results.map((run) => run.scenario))).toEqual(new Set(['grind', 'trade', 'explore']));
    expect(new Set(results.results.map((run) => run.seed))).toEqual(new Set([1001, 1002, 1003, 1004, 1005]));
    expect(results.results).toHaveLength(3 * 5 * 2);
    for (const run of results.results) expect(run.ticks).toBeGreaterThanOrEqual(200);
    for (const score of results.scores) expect(score.n).toBe(5);
    // What --json printed is the file.
    expect(JSON.parse(cli.stdout())).toEqual(results);
  }, 300_000);
});
