// `skipper eval` with error bars, through the built program: two autopilot sessions on embedded minimolt, asked
// again by builtin/autopilot (the baseline) and builtin/random. --json gives each model its mean agreement per
// session, sd, bootstrap 95 % interval, n and the paired difference to the baseline; an eval cut off and run again
// replays only what it had not finished (here: a run marked interrupted in the store, as Ctrl+C leaves it).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
let home = '';

type Json = Record<string, any>;

async function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, { home });
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const lines = (text: string): Json[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Json);

function counterfactualRows(): Array<{ id: number; status: string }> {
  const db = new Database(join(home, 'skipper.db'), { readonly: true });
  try {
    return db.prepare('SELECT id, status FROM counterfactuals ORDER BY id').all() as Array<{
      id: number;
      status: string;
    }>;
  } finally {
    db.close();
  }
}

const EVAL = ['eval', '', '--with', 'builtin/random', 'builtin/autopilot', '--json'];

beforeAll(async () => {
  home = newHome();
  EVAL[1] = home;
  for (const name of ['bars-1', 'bars-2']) {
    const played = await cli(['--autoplay', '--max-ticks', '25', '--tick-ms', '0', '-s', name]);
    expect(played.code, played.stderr).toBe(0);
  }
}, 90_000);

describe('skipper eval: scores with error bars, and a re-run that continues', () => {
  let first: Json[] = [];

  it('--json: mean, sd, ci95_low, ci95_high, n and diff_vs_baseline per model; the baseline asked first', async () => {
    const { code, stdout, stderr } = await cli(EVAL);
    expect(code, stderr).toBe(0);
    first = lines(stdout);
    const summaries = first.filter((event) => event.type === 'eval');
    // builtin/autopilot is the baseline: replayed first although --with named it second.
    expect(summaries.map((event) => event.model)).toEqual(['builtin/autopilot', 'builtin/random']);
    const perSession = (model: string): number[] =>
      first.filter((event) => event.type === 'counterfactual' && event.model === model).map((event) => event.agreement);
    for (const summary of summaries) {
      const agreements = perSession(summary.model);
      expect(summary.n).toBe(2);
      expect(agreements).toHaveLength(2);
      expect(summary.mean).toBeCloseTo((agreements[0]! + agreements[1]!) / 2, 3);
      expect(typeof summary.sd).toBe('number');
      expect(summary.ci95_low).toBeLessThanOrEqual(summary.mean + 1e-9);
      expect(summary.ci95_high).toBeGreaterThanOrEqual(summary.mean - 1e-9);
    }
    const [autopilot, random] = summaries;
    expect(autopilot!.diff_vs_baseline).toBeNull();
    expect(random!.diff_vs_baseline).toMatchObject({ n: 2 });
    expect(random!.diff_vs_baseline.mean).toBeCloseTo(random!.mean - autopilot!.mean, 3);
    // Random play agrees with the autopilot far less than the autopilot with itself.
    expect(random!.diff_vs_baseline.mean).toBeLessThan(0);
    expect(first.some((event) => event.reused)).toBe(false);
  }, 90_000);

  it('run again after an interruption: only the unfinished session is asked again, the figures are the same', async () => {
    const before = counterfactualRows();
    expect(before).toHaveLength(4);
    // What Ctrl+C in the middle of the last replay leaves: that run stored as interrupted.
    const db = new Database(join(home, 'skipper.db'));
    db.prepare(`UPDATE counterfactuals SET status = 'interrupted' WHERE id = ?`).run(before.at(-1)!.id);
    db.close();

    const { code, stdout, stderr } = await cli(EVAL);
    expect(code, stderr).toBe(0);
    const again = lines(stdout);
    const runs = again.filter((event) => event.type === 'counterfactual');
    expect(runs.filter((event) => event.reused === true)).toHaveLength(3);
    expect(runs.filter((event) => event.reused !== true)).toHaveLength(1);
    expect(counterfactualRows()).toHaveLength(5); // one new replay, not four
    const summary = (events: Json[], model: string): Json =>
      events.find((event) => event.type === 'eval' && event.model === model)!;
    // The autopilot's replays are deterministic: the re-asked session gives the same figures as before.
    for (const model of ['builtin/autopilot', 'builtin/random'])
      expect(summary(again, model).n).toBe(summary(first, model).n);
    expect(summary(again, 'builtin/autopilot').mean).toBe(summary(first, 'builtin/autopilot').mean);
  }, 90_000);

  it('the Markdown tables end with every model’s error bars', async () => {
    const { code, stdout } = await cli(EVAL.filter((arg) => arg !== '--json'));
    expect(code).toBe(0);
    expect(stdout).toContain('### agreement per session, all models');
    expect(stdout).toMatch(
      /^\| builtin\/random \| [\d.]+% \| [\d.]+% \| \[[\d.]+%, [\d.]+%\] \| 2 \| [+-][\d.]+ pts \|/m,
    );
    expect(stdout).toMatch(/^\| builtin\/autopilot \| [\d.]+% \| [\d.]+% \| .* \| 2 \| — \| — \| — \|$/m);
  }, 90_000);
});
