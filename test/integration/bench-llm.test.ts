// `skipper bench --model custom/…` against the fake OpenAI-compatible server: a model that fumbles (bad JSON
// arguments, a tool that does not exist) is scored on invalid calls, tool accuracy, tokens and cost, next to the
// baselines, and the server is checked for what it was sent (the scenario goal in the system prompt, the tools).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, expect, it, vi } from 'vitest';
import type { BenchResultsJson } from '../../internal/bench/json.js';
import { SCENARIO_GOALS } from '../../internal/bench/captain.js';
import { registerBenchCommand } from '../../internal/cli/bench-command.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../fakes/fake-openai.js';

let fake: FakeOpenAI | undefined;
const dirs: string[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await fake?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// One turn on the embedded game's v2 face (tools spacemolt_auth, spacemolt, spacemolt_market, spacemolt_social,
// spacemolt_storage): a status query, a call with broken JSON, an action the grouped tool does not have, a tool that
// does not exist, then a one-line answer.
const TURN: FakeReply[] = [
  {
    toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status' } }],
    usage: { promptTokens: 1000, completionTokens: 20 },
  },
  {
    toolCalls: [{ name: 'spacemolt', arguments: '{"action": "mine", oops' }],
    usage: { promptTokens: 1100, completionTokens: 20 },
  },
  {
    toolCalls: [{ name: 'spacemolt', arguments: { action: 'fly_to_the_moon' } }],
    usage: { promptTokens: 1150, completionTokens: 20 },
  },
  { toolCalls: [{ name: 'fly_to_the_moon', arguments: {} }], usage: { promptTokens: 1200, completionTokens: 20 } },
  { content: 'Looked around; nothing done.', usage: { promptTokens: 1300, completionTokens: 10 } },
];

it('scores a remote model on invalid calls, accuracy, tokens and cost, as a ratio to the autopilot', async () => {
  fake = await startFakeOpenAI({
    script: Array.from({ length: 400 }, (_, index) => TURN[index % TURN.length] as FakeReply),
  });
  const out = mkdtempSync(join(tmpdir(), 'skipper-bench-llm-'));
  dirs.push(out);
  const root = new Command('skipper')
    .option('--model <id>')
    .option('--seed <n>', 'seed', Number)
    .option('--json')
    .option('--home <dir>')
    .option('--base-url <url>')
    .option('--api-key-env <NAME>')
    .option('--price <in,out>');
  root.exitOverride();
  registerBenchCommand(root, { env: () => ({}) });
  const printed: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  await root.parseAsync([
    'node',
    'skipper',
    'bench',
    '--scenario',
    'explore',
    '--ticks',
    '4',
    '--json',
    '--out',
    out,
    '--model',
    'custom/fumbler',
    '--base-url',
    fake.url,
    '--price',
    '1,2',
  ]);
  vi.mocked(process.stdout.write).mockRestore();

  const results = JSON.parse(printed.join('')) as BenchResultsJson;
  expect(results.models).toEqual(['builtin/random', 'builtin/autopilot', 'custom/fumbler']);
  const run = results.results.find((r) => r.model === 'custom/fumbler')!;
  // The tick limit ends the run, not the turn cap (4 ticks × 4 + 20 = 36 turns): each turn's status query succeeds,
  // so autoplay sees the clock the bench charges an idle turn against.
  expect(run.stop_reason).toMatchObject({ code: 'max_ticks', text: expect.stringMatching(/max-ticks/) });
  expect(run.turns).toBeGreaterThanOrEqual(4);
  // Per turn: 4 calls, of which only get_status is a call the game knows as sent; the other 3 are the captain's own
  // mistakes, each counted once as invalid: bad JSON (invalid_arguments, refused by Skipper), an action `spacemolt`
  // does not list (invalid_arguments too: Skipper checks arguments against the tool's schema, its `action` enum
  // included, before the game sees them) and a tool not in the list (unknown_tool).
  // (Before the port the script still called v1's flat get_status and mine, which the v2 list lacks: all 3 calls were
  // unknown_tool, 3 a turn, and as no result carried a status autoplay's tick never moved: 36 turns at the cap, 108.)
  expect(run.tool_calls).toBe(run.turns * 4);
  expect(run.invalid_calls).toBe(run.turns * 3);
  expect(run.errors_by_code).toEqual({ invalid_arguments: run.turns * 2, unknown_tool: run.turns });
  // Tokens a turn, from the script: prompts 1000+1100+1150+1200+1300 = 5750, completions 4×20+10 = 90.
  expect(run.usage.prompt_tokens).toBe(run.turns * 5750);
  expect(run.usage.cost_usd).toBeCloseTo((run.turns * 5750 * 1 + run.turns * 90 * 2) / 1e6, 9);
  const row = results.scores.find((r) => r.model === 'custom/fumbler')!;
  expect(row.tool_accuracy).toBeCloseTo(1 / 4, 10);
  expect(row.tokens).toBe(run.turns * 5840);
  expect(row.usd_per_1000_credits).toBeNull(); // it gained nothing
  expect(row.outcome_per_100_ticks).toBe(0);

  // What the model was sent: the explore goal in the system prompt, and the game's tools — minimolt's five v2 groups
  // (262 real actions fold into a handful of tools, so a count like "more than 10" no longer says "the game's tools")
  // followed by the captain's memory tools.
  const first = fake.chatRequests[0]!.body as {
    messages: Array<{ role: string; content: string }>;
    tools: Array<{ type: string; function: { name: string } }>;
  };
  expect(first.messages[0]!.role).toBe('system');
  expect(first.messages[0]!.content).toContain(SCENARIO_GOALS.explore);
  // The token diet (issue 50): the tools a captain plays with, its memory tools, and game_tools listing the rest (chat,
  // storage; the account tool while it is logged in — the bench registers it in code), each still callable by name.
  expect(first.tools.map((tool) => tool.function.name)).toEqual([
    'spacemolt',
    'spacemolt_market',
    'remember',
    'recall',
    'forget',
    'game_tools',
  ]);
  expect(fake.invalid).toEqual([]);
});

it('keeps the baselines when a model cannot be played, and says why', async () => {
  fake = await startFakeOpenAI({
    script: Array.from({ length: 20 }, () => ({ fault: 'status' as const, status: 401 })),
  });
  const out = mkdtempSync(join(tmpdir(), 'skipper-bench-llm-'));
  dirs.push(out);
  const root = new Command('skipper')
    .option('--model <id>')
    .option('--seed <n>', 'seed', Number)
    .option('--json')
    .option('--home <dir>')
    .option('--base-url <url>')
    .option('--api-key-env <NAME>')
    .option('--price <in,out>');
  root.exitOverride();
  registerBenchCommand(root, { env: () => ({}) });
  const printed: string[] = [];
  const errors: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    errors.push(String(chunk));
    return true;
  });
  const before = process.exitCode;
  try {
    await root.parseAsync([
      'node',
      'skipper',
      'bench',
      '--ticks',
      '3',
      '--json',
      '--out',
      out,
      '--model',
      'custom/locked',
      '--base-url',
      fake.url,
    ]);
    expect(process.exitCode).toBe(1);
  } finally {
    process.exitCode = before;
    vi.restoreAllMocks();
  }
  const results = JSON.parse(printed.join('')) as BenchResultsJson;
  expect(results.scores.map((row) => row.model).sort()).toEqual(['builtin/autopilot', 'builtin/random']);
  expect(results.failures).toHaveLength(1);
  expect(results.failures[0]!.model).toBe('custom/locked');
  expect(results.failures[0]!.error).toMatch(/401/);
  expect(errors.join('')).toContain('custom/locked was not scored');
});
