// The built program: `skipper bench --scenario grind --ticks 200 --runs 1 --json` prints a results JSON with both
// baselines and their ratios to the autopilot, writes it under $SKIPPER_HOME/bench/<time>/, and `skipper report`
// recomputes a run's figures from the session database it wrote.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import type { BenchResultsJson } from '../../internal/bench/index.js';

const run = promisify(execFile);
const SKIPPER = resolve(import.meta.dirname, '../../dist/cmd/skipper.js');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('benches both baselines from the command line and reports a run from its database', async () => {
  const home = mkdtempSync(join(tmpdir(), 'skipper-bench-cli-'));
  dirs.push(home);
  const env = { ...process.env, SKIPPER_HOME: home, NO_COLOR: '1' };
  const bench = await run(
    'node',
    [SKIPPER, 'bench', '--scenario', 'grind', '--ticks', '200', '--runs', '1', '--json'],
    { env },
  );
  const results = JSON.parse(bench.stdout) as BenchResultsJson;
  expect(results.models).toEqual(['builtin/random', 'builtin/autopilot']);
  expect(results.failures).toEqual([]);
  const autopilot = results.scores.find((row) => row.model === 'builtin/autopilot')!;
  const random = results.scores.find((row) => row.model === 'builtin/random')!;
  expect(autopilot.ratio_to_autopilot).toBe(1);
  expect(autopilot.outcome_per_100_ticks).toBeGreaterThan(0);
  expect(random.ratio_to_autopilot).toBeCloseTo(random.outcome_per_100_ticks / autopilot.outcome_per_100_ticks, 10);
  for (const result of results.results) expect(result.ticks).toBeGreaterThanOrEqual(200);

  const [stamp] = readdirSync(join(home, 'bench'));
  const out = join(home, 'bench', stamp!);
  expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'))).toEqual(results);
  expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain('| grind | builtin/autopilot |');

  const autopilotRun = results.results.find((result) => result.model === 'builtin/autopilot')!;
  // results.md names every run's session: the NAME `skipper report NAME --home OUT_DIR` takes.
  for (const result of results.results)
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain(`\`${result.session_name}\``);
  const report = await run('node', [SKIPPER, 'report', autopilotRun.session_name, '--home', out, '--json'], { env });
  const data = JSON.parse(report.stdout) as Record<string, any>;
  expect(data.tool_calls).toBe(autopilotRun.tool_calls);
  expect(data.failed_calls).toBe(autopilotRun.failed_calls);
  // Credits are the game's in both; the bench scores the game's own net worth (its hold at base prices), the report
  // prices the hold at the market bids the session saw, labelled so (both equal only when no market was seen).
  expect(data.points.at(-1)?.credits).toBe(autopilotRun.credits_end);
  if (data.net_worth_pricing === 'price-table') expect(data.points.at(-1)?.net_worth).toBe(autopilotRun.net_worth_end);
  else expect(data.net_worth_pricing).toBe('market');
  const text = await run('node', [SKIPPER, 'report', autopilotRun.session_name, '--home', out], { env });
  expect(text.stdout).toContain(`Report · ${autopilotRun.session_name}`);
  expect(text.stdout).toMatch(/[\u2801-\u28ff]/);
});
