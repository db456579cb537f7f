// Autoplay as scripts and people meet it: --json events, stop rules (turns, token budget), /autoplay and /stop
// inside chat, queued orders, and replay showing what live play showed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function start(args: string[], home = makeHome(), env: Record<string, string> = {}): CliRun {
  const cli = runCli(args, { home, env });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
  });
  return cli;
}

function parseLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('autoplay', () => {
  it('--json prints one JSON object per line: session-start, turns, tool calls and results, autoplay-end', async () => {
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const cli = start(['--autoplay', '--max-turns', '3', '--tick-ms', '0', '--json'], home);
    const { code } = await cli.exited;
    expect(code).toBe(0);
    const events = parseLines(cli.stdout());
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('session-start');
    expect(types).toContain('turn-start');
    expect(types).toContain('tool-call');
    expect(types).toContain('tool-result');
    expect(types.filter((type) => type === 'turn-end')).toHaveLength(3);
    const end = events.at(-1)!;
    expect(end.type).toBe('autoplay-end');
    expect(end.turns).toBe(3);
    expect(end.stop_reason).toMatchObject({ code: 'max_turns', text: expect.stringMatching(/max-turns/) });
    expect(typeof end.tick_utilisation).toBe('number');
    // Embedded minimolt reports busy and alive ticks: the figure is the game's, and says so.
    expect(end.tick_utilisation_source).toBe('server');
    expect(end.leaks).toBe(0);
    // Logs never reach stdout.
    expect(cli.stdout()).not.toMatch(/"level":\d+/);
  });

  it('--budget-tokens stops autoplay once the budget is spent, mid-turn if needed', async () => {
    const reply = {
      toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status' } }],
      usage: { promptTokens: 900, completionTokens: 100 },
    };
    const server: FakeOpenAI = await startFakeOpenAI({ script: Array.from({ length: 12 }, () => ({ ...reply })) });
    cleanups.push(() => server.close());
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const cli = start(
      [
        '--model',
        'custom/test-model',
        '--base-url',
        server.url,
        '--autoplay',
        '--budget-tokens',
        '2500',
        '--tick-ms',
        '0',
        '--json',
      ],
      home,
    );
    const { code } = await cli.exited;
    expect(code).toBe(0);
    const events = parseLines(cli.stdout());
    const end = events.find((event) => event.type === 'autoplay-end')!;
    expect(end.stop_reason).toMatchObject({ code: 'budget_exceeded', text: expect.stringMatching(/budget/) });
    // 1,000 tokens a call: the third call crosses 2,500 and nothing more is asked of the model.
    expect(server.chatRequests.length).toBe(3);
    expect(Number(end.prompt_tokens) + Number(end.completion_tokens)).toBe(3000);
    expect(server.invalid).toEqual([]);
  });

  it('/autoplay runs inside chat, typed lines become orders, /stop stops it with a summary', async () => {
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const cli = start(['--tick-ms', '20'], home);
    cli.send('/autoplay mine copper');
    await cli.waitFor(/autoplay started \(goal: mine copper\)/);
    await cli.waitFor(/── turn 2 · autoplay ──/);
    cli.send('head home after this');
    await cli.waitFor(/order queued/);
    await cli.waitFor(/Orders from your commander.*head home after this/);
    cli.send('/stop');
    await cli.waitFor(/Autoplay ended: interrupted/);
    await cli.waitFor(/tick utilisation/);
    cli.send('/quit');
    expect((await cli.exited).code).toBe(0);
    // The goal given to /autoplay is the session's: sessions --json and the export's header show it.
    const listed = start(['sessions', '--json'], home);
    expect((await listed.exited).code).toBe(0);
    const row = JSON.parse(listed.stdout().trim().split('\n')[0] ?? '{}') as { name: string; goal: string | null };
    expect(row.goal).toBe('mine copper');
    const exported = start(['export', row.name, '--format', 'md'], home);
    expect((await exported.exited).code).toBe(0);
    expect(exported.stdout()).toContain('- goal: mine copper');
  });

  it('--benchmark FILE logs tool calls, tool errors with their codes and turn ends with running token totals', async () => {
    const server: FakeOpenAI = await startFakeOpenAI({
      script: [
        // Refused by Skipper before the game sees it: JSON that does not parse.
        {
          toolCalls: [{ name: 'spacemolt', arguments: '{"action": "get_status", "broken": ' }],
          usage: { promptTokens: 100, completionTokens: 10 },
        },
        // Refused by the game's v2 face, as the real server does: a parameter the action does not take.
        {
          toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status', system_id: 'sol' } }],
          usage: { promptTokens: 105, completionTokens: 10 },
        },
        // Refused by Skipper: a tool the game does not have.
        { toolCalls: [{ name: 'no_such_tool', arguments: {} }], usage: { promptTokens: 120, completionTokens: 10 } },
        { content: 'Nothing more to do.', usage: { promptTokens: 130, completionTokens: 5 } },
        { content: 'Handoff.', usage: { promptTokens: 50, completionTokens: 5 } },
      ],
    });
    cleanups.push(() => server.close());
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const file = join(home, 'bench.jsonl');
    const cli = start(
      [
        '--model',
        'custom/test-model',
        '--base-url',
        server.url,
        '--autoplay',
        '--max-turns',
        '1',
        '--tick-ms',
        '0',
        '--benchmark',
        file,
      ],
      home,
    );
    expect((await cli.exited).code, cli.stderr()).toBe(0);
    const events = parseLines(readFileSync(file, 'utf8'));
    expect(events[0]).toMatchObject({ event: 'session_start', model: 'custom/test-model', game: 'embedded' });
    const errors = events.filter((event) => event.event === 'tool_error').map((event) => event.code);
    expect(errors).toEqual(['invalid_arguments', 'invalid_payload', 'unknown_tool']);
    expect(events.filter((event) => event.event === 'tool_call')).toHaveLength(3);
    const turnEnd = events.find((event) => event.event === 'turn_end')!;
    // Turn 1's four replies (the handoff after it is not counted): 100+105+120+130 and 10+10+10+5.
    expect(turnEnd).toMatchObject({
      turn: 1,
      prompt_tokens_total: 455,
      completion_tokens_total: 35,
      tokens_total: 490,
    });
  });

  it('SIGTERM during --autoplay stops it with a summary and exit 143 (130 is for Ctrl+C)', async () => {
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const cli = start(['--autoplay', '--tick-ms', '20'], home);
    await cli.waitFor(/── turn 2 · autoplay ──/);
    cli.kill('SIGTERM');
    await cli.waitFor(/Autoplay ended: interrupted/);
    expect((await cli.exited).code).toBe(143);
  });

  it('replay shows what live play showed (colours aside), and sessions lists the session', async () => {
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const live = start(['--autoplay', '--max-turns', '4', '--tick-ms', '0', '-s', 'replay-me'], home);
    expect((await live.exited).code).toBe(0);
    const replay = start(['replay', 'replay-me', '--instant'], home);
    expect((await replay.exited).code).toBe(0);
    const transcript = (text: string): string[] => {
      const lines = text.split('\n');
      const first = lines.findIndex((line) => line.startsWith('── turn 1'));
      const last = lines.findIndex((line) => line.startsWith('Autoplay ended'));
      // The line before the first turn header is the blank separator both print.
      return lines.slice(first, last === -1 ? undefined : last).filter((line) => !line.startsWith('  logged in as'));
    };
    const liveLines = transcript(live.stdout());
    const replayLines = transcript(replay.stdout());
    expect(liveLines.length).toBeGreaterThan(10);
    expect(replayLines.join('\n').trimEnd()).toBe(liveLines.join('\n').trimEnd());

    const sessions = start(['sessions'], home);
    expect((await sessions.exited).code).toBe(0);
    expect(sessions.stdout()).toMatch(/^NAME\s+GAME\s+MODEL\s+TURNS/m);
    expect(sessions.stdout()).toMatch(/replay-me\s+embedded\s+builtin\/autopilot\s+4\b/);
  });
});
