// One vocabulary for the figures: a short autoplay session (embedded minimolt, the builtin autopilot, a temp home),
// then its `autoplay-end` event, its `skipper sessions --json` row and its `skipper report NAME --json` object write
// the same figures under the same snake_case names, with equal values, field by field.
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) removeHome(home);
});

/** The figures every view writes (session-figures.ts names them). */
const SHARED = [
  'turns',
  'ticks',
  'credits_start',
  'credits_end',
  'credits_change',
  'net_worth_start',
  'net_worth_end',
  'net_worth_change',
  'tokens',
  'prompt_tokens',
  'completion_tokens',
  'cost_usd',
  'cached_prompt_tokens',
  'credits_per_1k_tokens',
  'usd_per_1k_credits',
] as const;

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function stdoutOf(args: string[], home: string): Promise<string> {
  const cli = runCli(args, { home });
  const { code } = await cli.exited;
  expect(code, cli.stderr()).toBe(0);
  return cli.stdout();
}

const isSnakeCase = (key: string): boolean => /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(key);

describe('the autoplay summary, sessions --json and report --json speak one vocabulary', () => {
  it('give equal values under equal names for every shared figure', async () => {
    const home = makeHome();
    homes.push(home);
    const events = jsonLines(await stdoutOf(['--autoplay', '--max-ticks', '30', '--tick-ms', '0', '--json'], home));
    const end = events.at(-1)!;
    expect(end.type).toBe('autoplay-end');
    const name = String(end.session);
    const listed = jsonLines(await stdoutOf(['sessions', '--json'], home)).find((row) => row.name === name);
    expect(listed, `sessions --json lists ${name}`).toBeDefined();
    const report = jsonLines(await stdoutOf(['report', name, '--json'], home))[0]!;

    // The run did something: the comparison is between real figures, not between three nulls.
    expect(end.ticks).toBeGreaterThanOrEqual(30);
    expect(typeof end.credits_change).toBe('number');
    expect(end.credits_change).toBe(Number(end.credits_end) - Number(end.credits_start));
    expect(end.net_worth_change).toBe(Number(end.net_worth_end) - Number(end.net_worth_start));
    expect(end.tokens).toBe(Number(end.prompt_tokens) + Number(end.completion_tokens));

    for (const field of SHARED) {
      expect(end, `autoplay-end has ${field}`).toHaveProperty(field);
      expect(listed![field], `sessions --json ${field}`).toEqual(end[field]);
      expect(report[field], `report --json ${field}`).toEqual(end[field]);
    }
    expect(report.actions).toBe(end.actions);
    expect(report.name).toBe(name);

    // Every key of the three outputs is snake_case, nested ones too.
    const keys = (value: unknown): string[] =>
      Array.isArray(value)
        ? value.flatMap(keys)
        : typeof value === 'object' && value !== null
          ? Object.entries(value).flatMap(([key, inner]) =>
              // errors_by_code and outcomes are keyed by the game's codes and outcomes, not by our names.
              key === 'errors_by_code' || key === 'outcomes' || key === 'reasons' ? [key] : [key, ...keys(inner)],
            )
          : [];
    expect([end, listed, report].flatMap(keys).filter((key) => !isSnakeCase(key))).toEqual([]);
  }, 90_000);
});
