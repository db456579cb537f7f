// `--max-ticks N` is exact, and the figures agree: the built CLI plays embedded minimolt, then the autoplay summary
// (`autoplay-end` in --json), `skipper sessions --json` and `skipper report NAME --json` are compared field by field.
// They all measure between the same two stored snapshots: the state autoplay started from and the one it ended in.
import { describe, expect, it } from 'vitest';
import { runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';

const newHome = tempHomes();

function lastJson(cli: CliRun): Record<string, any> {
  const lines = cli
    .stdout()
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'));
  return JSON.parse(lines.at(-1)!) as Record<string, any>;
}

async function play(args: string[]): Promise<{ home: string; end: Record<string, any> }> {
  const home = newHome();
  const cli = runCli(['--autoplay', ...args, '--json'], { home });
  const { code } = await cli.exited;
  expect(code, cli.stderr()).toBe(0);
  return { home, end: lastJson(cli) };
}

async function views(
  home: string,
  name: string,
): Promise<{ listed: Record<string, any>; report: Record<string, any> }> {
  const sessions = runCli(['sessions', '--json'], { home });
  expect((await sessions.exited).code, sessions.stderr()).toBe(0);
  const listed = sessions
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>)
    .find((row) => row.name === name)!;
  const report = runCli(['report', name, '--json'], { home });
  expect((await report.exited).code, report.stderr()).toBe(0);
  return { listed, report: JSON.parse(report.stdout()) as Record<string, any> };
}

describe.concurrent('limits and the figures every view shows', () => {
  it('--max-ticks 120 ends at 120–121 ticks, and the summary, sessions --json and report --json agree exactly', async () => {
    const { home, end } = await play(['--max-ticks', '120', '--tick-ms', '0']);
    expect(end.type).toBe('autoplay-end');
    expect(end.stop_reason).toEqual({ code: 'max_ticks', limit: 120, text: 'reached --max-ticks 120' });
    expect(end.ticks).toBeGreaterThanOrEqual(120);
    expect(end.ticks).toBeLessThanOrEqual(121);
    const { listed, report } = await views(home, end.session);
    const creditsChange = end.credits_end - end.credits_start;
    const netWorthChange = end.net_worth_end - end.net_worth_start;
    expect(creditsChange).toBeGreaterThan(0);
    expect({ ticks: listed.ticks, credits: listed.credits_change, netWorth: listed.net_worth_change }).toEqual({
      ticks: end.ticks,
      credits: creditsChange,
      netWorth: netWorthChange,
    });
    expect({ ticks: report.ticks, credits: report.credits_change, netWorth: report.net_worth_change }).toEqual({
      ticks: end.ticks,
      credits: creditsChange,
      netWorth: netWorthChange,
    });
    expect(report.actions).toBe(end.actions);
    expect(listed.turns).toBe(end.turns);
  }, 90_000);

  it('--max-ticks 10 on a real-time tick: no more than one action past the limit, and the views still agree', async () => {
    const { home, end } = await play(['--max-ticks', '10', '--tick-ms', '50']);
    expect(end.stop_reason).toEqual({ code: 'max_ticks', limit: 10, text: 'reached --max-ticks 10' });
    // One mutation a tick at most, plus the one that may have started just before the limit.
    expect(end.actions).toBeLessThanOrEqual(end.ticks + 1);
    expect(end.actions).toBeLessThanOrEqual(11);
    const { listed, report } = await views(home, end.session);
    expect(listed.ticks).toBe(end.ticks);
    expect(report.ticks).toBe(end.ticks);
    expect(listed.credits_change).toBe(end.credits_end - end.credits_start);
  }, 60_000);
});
