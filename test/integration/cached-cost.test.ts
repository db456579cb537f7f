// True cost (issue 50): a scripted model played over a real HTTP fake of the OpenAI API that reports cached prompt
// tokens (`usage.prompt_tokens_details.cached_tokens`). `skipper report --json` shows the cached tokens and a cost
// priced at the model's own cached rate from the price table — and, with `--price IN,OUT,CACHED`, at that rate.
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

type Json = Record<string, unknown>;

const PROMPT = 10_000;
const CACHED = 8_000;
const COMPLETION = 100;

const reply = (content: string): FakeReply => ({
  content,
  usage: { promptTokens: PROMPT, completionTokens: COMPLETION, cachedTokens: CACHED },
});

const homes: string[] = [];
const fakes: FakeOpenAI[] = [];
afterAll(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
  for (const home of homes.splice(0)) removeHome(home);
});

/** Two autoplay turns of a model that only talks (plus the handoff note), then the session's `report --json`. */
async function playAndReport(extra: string[], name: string): Promise<{ report: Json; calls: number; end: Json }> {
  const fake = await startFakeOpenAI({
    script: ['Holding position.', 'Still holding.', 'Handoff: docked, nothing sold.', 'Spare.'].map(reply),
  });
  fakes.push(fake);
  const home = makeHome();
  homes.push(home);
  const args = ['--model', 'openai/gpt-4.1-mini', '--base-url', fake.url, ...extra];
  const cli = runCli([...args, '--autoplay', '--max-turns', '2', '--json', '-s', name], {
    home,
    env: { OPENAI_API_KEY: 'sk-test-cached' },
  });
  const { code } = await cli.exited;
  expect(code, cli.stderr()).toBe(0);
  expect(fake.exhausted).toBe(false);
  expect(fake.invalid).toEqual([]);
  const end = cli
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Json)
    .find((event) => event.type === 'autoplay-end')!;
  const reportRun = runCli(['report', name, '--json'], { home });
  expect((await reportRun.exited).code, reportRun.stderr()).toBe(0);
  return { report: JSON.parse(reportRun.stdout()) as Json, calls: fake.chatRequests.length, end };
}

/** USD for `calls` replies at IN/OUT/CACHED per million tokens. */
const expected = (calls: number, price: { in: number; out: number; cached: number }): number =>
  (calls * ((PROMPT - CACHED) * price.in + CACHED * price.cached + COMPLETION * price.out)) / 1e6;

describe('cached prompt tokens are counted and priced at the model’s own cached rate', () => {
  it('from the price table (gpt-4.1-mini: cached at a quarter of the input price)', async () => {
    const { report, calls, end } = await playAndReport([], 'cached-table');
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(report.cached_prompt_tokens).toBe(calls * CACHED);
    expect(report.prompt_tokens).toBe(calls * PROMPT);
    expect(report.cost_usd as number).toBeCloseTo(expected(calls, { in: 0.4, out: 1.6, cached: 0.1 }), 12);
    // Not the old flat 50 % of the input price.
    expect(report.cost_usd as number).not.toBeCloseTo(expected(calls, { in: 0.4, out: 1.6, cached: 0.2 }), 12);
    // The ratios sit beside the cost (null: the model never logged in, so no gain was measured).
    expect(report).toHaveProperty('credits_per_1k_tokens');
    expect(report).toHaveProperty('usd_per_1k_credits');
    // The autoplay summary says the same.
    expect(end.cached_prompt_tokens).toBe(report.cached_prompt_tokens);
    expect(end.cost_usd as number).toBeCloseTo(report.cost_usd as number, 12);
  }, 90_000);

  it('from --price IN,OUT,CACHED', async () => {
    const { report, calls } = await playAndReport(['--price', '1,2,0.1'], 'cached-price');
    expect(report.cached_prompt_tokens).toBe(calls * CACHED);
    expect(report.cost_usd as number).toBeCloseTo(expected(calls, { in: 1, out: 2, cached: 0.1 }), 12);
  }, 90_000);
});
