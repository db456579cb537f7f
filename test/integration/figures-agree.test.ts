// One set of figures everywhere (issue 29): autoplay plays a `skipper serve` process over HTTP, then the summary (the
// `autoplay-end` event), `skipper sessions --json`, `skipper report --json` and the export header (JSON Lines) are
// compared field by field — turns (the handoff turn included), ticks, utilisation and its source, credits, net worth
// and its pricing, cost, duration. The Markdown export's outcome says the same numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';

const FIELDS = [
  'turns',
  'duration_ms',
  'ticks',
  'tick_utilisation',
  'tick_utilisation_source',
  'credits_start',
  'credits_end',
  'credits_change',
  'net_worth_start',
  'net_worth_end',
  'net_worth_change',
  'net_worth_pricing',
  'tokens',
  'prompt_tokens',
  'completion_tokens',
  'cost_usd',
  'cached_prompt_tokens',
  'credits_per_1k_tokens',
  'usd_per_1k_credits',
] as const;

type Json = Record<string, unknown>;

const pick = (from: Json): Json => Object.fromEntries(FIELDS.map((field) => [field, from[field]]));

const jsonLines = (text: string): Json[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Json);

async function output(args: string[], home: string): Promise<string> {
  const cli = runCli(args, { home });
  const { code } = await cli.exited;
  expect(code, `${args.join(' ')}: ${cli.stderr()}`).toBe(0);
  expect(cli.stderr()).not.toMatch(/\n\s+at /);
  return cli.stdout();
}

/** Every view of one stored session, its figures picked. */
async function views(home: string, name: string): Promise<{ sessions: Json; report: Json; header: Json; md: string }> {
  const sessions = jsonLines(await output(['sessions', '--json'], home)).find((row) => row.name === name)!;
  const report = jsonLines(await output(['report', name, '--json'], home))[0]!;
  const header = jsonLines(await output(['export', name, '--format', 'jsonl'], home))[0]!;
  const md = await output(['export', name], home);
  return { sessions, report, header: header.figures as Json, md };
}

const home = makeHome();
let server: CliRun;
let game: { url: string; code: string };

beforeAll(async () => {
  server = runCli(['serve', '--port', '0', '--tick-ms', '100'], { home });
  const [, url, code] = await server.waitFor(/ --game (http:\/\/\S+\/mcp\/v2) --registration-code (\S+)/);
  game = { url: url!, code: code! };
});

afterAll(async () => {
  server.kill('SIGINT');
  await server.exited;
  removeHome(home);
});

describe('the summary, sessions, report and export agree', () => {
  it('on an autopilot run over HTTP: the game reports busy ticks, so every view says "server"', async () => {
    const cli = runCli(
      [
        '--game',
        game.url,
        '--registration-code',
        game.code,
        '--autoplay',
        '--max-ticks',
        '30',
        '--json',
        '-s',
        'agree-autopilot',
      ],
      { home },
    );
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(0);
    const end = jsonLines(cli.stdout()).find((event) => event.type === 'autoplay-end')!;
    const { sessions, report, header, md } = await views(home, 'agree-autopilot');

    expect(pick(sessions)).toEqual(pick(end));
    expect(pick(report)).toEqual(pick(end));
    expect(pick(header)).toEqual(pick(end));
    // The figures are there, not null: the game said them.
    expect(end.tick_utilisation_source).toBe('server');
    expect(typeof end.tick_utilisation).toBe('number');
    expect(Number(end.ticks)).toBeGreaterThanOrEqual(30);
    expect(Number(end.turns)).toBeGreaterThan(0);
    expect(Number(end.duration_ms)).toBeGreaterThan(0);
    expect(typeof end.net_worth_end).toBe('number');
    expect(typeof end.credits_end).toBe('number');
    expect(end.net_worth_pricing).toMatch(/^(market|price-table)$/);
    expect(md).toContain(`- ticks: ${String(end.ticks)}`);
    // How many turns the run took depends on the machine (one, on a busy one): the words follow the count.
    const turns = `${String(end.turns)} turn${Number(end.turns) === 1 ? '' : 's'}`;
    expect(md).toContain(`· ${turns}`);
    expect(md).toContain(
      `- tick utilisation: ${(Number(end.tick_utilisation) * 100).toFixed(1)}% (the game's busy ÷ alive)`,
    );
    // The person's summary says the same words.
    const text = runCli(['report', 'agree-autopilot'], { home });
    await text.exited;
    expect(text.stdout()).toContain(`${turns} · ${String(end.ticks)} ticks`);
    expect(text.stdout()).toContain("(the game's busy ÷ alive)");
  }, 90_000);

  it('on a model run: the handoff turn is counted the same in every view, and the cost with it', async () => {
    const fake: FakeOpenAI = await startFakeOpenAI({
      script: [
        { content: 'Holding position, captain.' },
        { content: 'Still holding.' },
        { content: 'Handoff: docked at the start, nothing sold yet.' },
      ],
    });
    // Its own home: no password stored for this game, so the captain stays logged out (the model calls no tool).
    const modelHome = makeHome();
    try {
      const cli = runCli(
        [
          ...['--game', game.url, '--registration-code', game.code, '--model', 'custom/test-model'],
          ...[
            '--base-url',
            fake.url,
            '--price',
            '1,2',
            '--autoplay',
            '--max-turns',
            '2',
            '--json',
            '-s',
            'agree-model',
          ],
        ],
        { home: modelHome },
      );
      const { code } = await cli.exited;
      expect(code, cli.stderr()).toBe(0);
      expect(fake.exhausted).toBe(false);
      expect(fake.chatRequests).toHaveLength(3);
      const end = jsonLines(cli.stdout()).find((event) => event.type === 'autoplay-end')!;
      const { sessions, report, header } = await views(modelHome, 'agree-model');
      // Two autoplay turns and the handoff note: three turns stored, three in every view.
      expect(end.turns).toBe(3);
      expect(pick(sessions)).toEqual(pick(end));
      expect(pick(report)).toEqual(pick(end));
      expect(pick(header)).toEqual(pick(end));
      expect(Number(end.tokens)).toBeGreaterThan(0);
      expect(Number(end.cost_usd)).toBeGreaterThan(0);
      expect((end.handoff as Json).tokens).toBeGreaterThan(0);
      // The model never called a game tool: the captain never logged in, so no game state was recorded and every
      // view says the ticks are unknown (null), not a clock estimate in one place and 0 in another.
      expect(end.ticks).toBeNull();
      expect(end.tick_utilisation).toBeNull();
      const text = runCli(['report', 'agree-model'], { home: modelHome });
      await text.exited;
      expect(text.stdout()).toContain('3 turns · ticks unknown (no game state recorded)');
    } finally {
      await fake.close();
      removeHome(modelHome);
    }
  }, 90_000);
});
