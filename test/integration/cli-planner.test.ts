// Planner mode as users run it: `skipper --autoplay --planner --model …` against a real OpenAI-compatible HTTP fake.
// The model is asked only at wakes (the prompt says why), sets the plan with set_plan, the autopilot flies it; the
// plan is stored with the session, survives kill -9 and is flown again on resume; misuse is a usage error.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';
import { openStore } from '../../internal/store/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function start(args: string[], home: string): CliRun {
  const cli = runCli(args, { home });
  cleanups.push(async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
  });
  return cli;
}

type WireMessage = { role: string; content?: string | null; tool_calls?: Array<{ function: { name: string } }> };

/** The planning model: at a check-in it sets a plan once, then answers in one line. */
function planningModel(request: RecordedRequest): {
  content?: string;
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
} {
  const messages = request.body.messages as WireMessage[];
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const planSet = messages
    .slice(lastUser + 1)
    .some((m) => m.tool_calls?.some((call) => call.function.name === 'set_plan'));
  if (!planSet && /Planner check-in/.test(String(messages[lastUser]?.content ?? ''))) {
    return {
      toolCalls: [
        { name: 'set_plan', arguments: { strategy: 'mine', resource: 'iron_ore', intent: 'iron pays the bills' } },
      ],
    };
  }
  return { content: 'Plan set: the autopilot mines iron.' };
}

function wakePrompts(server: FakeOpenAI): string[] {
  return server.chatRequests
    .map((request) => (request.body.messages as WireMessage[]).filter((m) => m.role === 'user').at(-1)?.content ?? '')
    .filter((text): text is string => /^Planner check-in/.test(text));
}

function autoplayEnd(cli: CliRun): Record<string, any> {
  const events = cli
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);
  const end = events.find((event) => event.type === 'autoplay-end');
  expect(end).toBeDefined();
  return end!;
}

describe('planner mode', () => {
  it('the model plans at wakes only, the autopilot flies every tick, and the summary says so', async () => {
    const server = await startFakeOpenAI({ script: Array.from({ length: 40 }, () => planningModel) });
    cleanups.push(() => server.close());
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const cli = start(
      [
        '--model',
        'custom/planner',
        '--base-url',
        server.url,
        '--autoplay',
        '--planner',
        '--max-ticks',
        '60',
        '--tick-ms',
        '0',
        '-s',
        'planned',
        '--json',
      ],
      home,
    );
    const { code } = await cli.exited;
    expect(cli.stderr()).toBe('');
    expect(code).toBe(0);
    expect(server.invalid).toEqual([]);
    const end = autoplayEnd(cli);
    // One wake (no plan yet): two requests (set_plan, then the one-line answer); the autopilot plays the rest.
    expect(end.planner).toMatchObject({ wakes: 1, model_requests: 2, reasons: { 'no-plan': 1 } });
    expect(end.planner.plan).toMatch(/^mine iron_ore/);
    // Those two, and the end-of-session handoff the model writes for its memory.
    expect(server.chatRequests).toHaveLength(3);
    expect(wakePrompts(server)[0]).toMatch(/^Planner check-in: there is no plan yet\.\nGoal: /);
    // set_plan is offered to the model next to the game's tools.
    const tools = (server.chatRequests[0]!.body.tools as Array<{ function: { name: string } }>).map(
      (tool) => tool.function.name,
    );
    expect(tools).toContain('set_plan');
    expect(tools).toContain('spacemolt');
    expect(end.actions).toBeGreaterThan(20);
    expect(end.ticks).toBeGreaterThanOrEqual(60);
    expect(end.tick_utilisation).toBeGreaterThan(0.8);
    const store = await openStore({ path: join(home, 'skipper.db') });
    try {
      expect((await store.findSession('planned'))?.extra).toMatchObject({
        plan: { strategy: 'mine', resource: 'iron_ore', intent: 'iron pays the bills' },
      });
    } finally {
      await store.close();
    }
  });

  it('a run killed with kill -9 resumes with its plan: the first wake says so and no new plan is asked for', async () => {
    const server = await startFakeOpenAI({ script: Array.from({ length: 40 }, () => planningModel) });
    cleanups.push(() => server.close());
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const args = [
      '--model',
      'custom/planner',
      '--base-url',
      server.url,
      '--autoplay',
      '--planner',
      '--tick-ms',
      '20',
      '-s',
      'crashy',
    ];
    const first = start([...args, '--max-ticks', '100000'], home);
    await first.waitFor(/Plan set: mine iron_ore/, { timeoutMs: 20_000 });
    await first.waitFor(/sell|mine|travel/, { timeoutMs: 20_000, after: first.stdout().length });
    first.kill('SIGKILL');
    await first.exited;
    const requestsBefore = server.chatRequests.length;

    const second = start([...args, '--max-ticks', '30', '--json'], home);
    const { code } = await second.exited;
    expect(second.stderr()).toBe('');
    expect(code).toBe(0);
    expect(server.invalid).toEqual([]);
    const prompts = wakePrompts(server).slice(-1);
    expect(server.chatRequests.length).toBeGreaterThan(requestsBefore);
    const resumed = (server.chatRequests[requestsBefore]!.body.messages as WireMessage[])
      .filter((m) => m.role === 'user')
      .at(-1)?.content;
    expect(resumed).toMatch(/^Planner check-in: the session was resumed\./);
    expect(resumed).toContain('Plan in force: mine iron_ore');
    expect(prompts.every((text) => !/no plan yet/.test(text))).toBe(true);
    const end = autoplayEnd(second);
    expect(end.planner.reasons).toEqual({ resumed: 1 });
  });

  it('misuse is a usage error that says what to do', async () => {
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const alone = start(['--autoplay', '--planner', '--tick-ms', '0'], home);
    expect((await alone.exited).code).toBe(2);
    expect(alone.stderr()).toMatch(/--planner needs a language model to plan .*add --model/);
    const every = start(['--autoplay', '--planner-every', '100', '--tick-ms', '0'], home);
    expect((await every.exited).code).toBe(2);
    expect(every.stderr()).toMatch(/--planner-every .* add --planner/);
  });
});
