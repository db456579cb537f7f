// The chat REPL as a person meets it: the built CLI as a child process with a stdin pipe and signals, the real
// OpenAI-compatible provider against the fake OpenAI server, and embedded minimolt.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(script: Parameters<typeof startFakeOpenAI>[0]): Promise<FakeOpenAI> {
  const server = await startFakeOpenAI(script);
  cleanups.push(() => server.close());
  return server;
}

function chat(server: FakeOpenAI, extra: string[] = []): CliRun {
  const home = makeHome();
  const cli = runCli(['--model', 'custom/test-model', '--base-url', server.url, '--tick-ms', '0', ...extra], { home });
  cleanups.push(async () => {
    if (cli.child.exitCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
    removeHome(home);
  });
  return cli;
}

const userTexts = (request: RecordedRequest): string[] =>
  (request.body.messages as Array<{ role: string; content: string }>)
    .filter((m) => m.role === 'user')
    .map((m) => m.content);

describe('chat', () => {
  it('answers a line, keeps the previous turn for follow-ups, and /quit exits 0', async () => {
    const server = await fake({
      script: [
        { content: 'Aye, captain. All quiet.' },
        { content: 'Understood, trying again.' },
        { content: 'Handoff: quiet day at Sol.' },
      ],
    });
    const cli = chat(server);
    cli.send('hello captain');
    await cli.waitFor(/captain › Aye, captain\. All quiet\./);
    cli.send('that was wrong, try again');
    await cli.waitFor(/Understood, trying again\./);
    cli.send('/quit');
    expect((await cli.exited).code).toBe(0);
    expect(server.invalid).toEqual([]);
    expect(server.exhausted).toBe(false);
    const second = server.chatRequests[1];
    expect(second).toBeDefined();
    // The follow-up carries the first exchange: the model can tell what "that" was.
    expect(userTexts(second!)).toEqual(['hello captain', 'that was wrong, try again']);
    const assistant = (second!.body.messages as Array<{ role: string; content: string }>).find(
      (m) => m.role === 'assistant',
    );
    expect(assistant?.content).toBe('Aye, captain. All quiet.');
  });

  it('runs tool calls against the game and shows each as one line', async () => {
    const server = await fake({
      script: [
        // The embedded game's v2 face: no registration code from the model, Skipper fills it in.
        {
          toolCalls: [
            { name: 'spacemolt_auth', arguments: { action: 'register', username: 'chat_tester', empire: 'solarian' } },
          ],
        },
        { toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status' } }] },
        { content: 'Registered and docked at Sol.' },
        { content: 'Handoff: registered, docked at Sol.' },
      ],
    });
    const cli = chat(server);
    cli.send('register please');
    await cli.waitFor(/Registered and docked at Sol\./);
    // One line per call, each a success: the grouped tool named with its action and arguments.
    expect(cli.stdout()).toMatch(/^ {2}✓ spacemolt_auth action=register username=chat_tester [^\n]*$/m);
    expect(cli.stdout()).toMatch(/^ {2}✓ spacemolt action=get_status\b[^\n]*$/m);
    expect(cli.stdout()).not.toMatch(/✗/);
    cli.send('/quit');
    await cli.exited;
    // The password the game returned never reached the model, nor the screen.
    const third = JSON.stringify(server.chatRequests[2]?.body ?? {});
    expect(third).toContain('[saved]');
    expect(third).not.toMatch(/[0-9a-f]{64}/);
    expect(cli.stdout()).not.toMatch(/[0-9a-f]{64}/);
    expect(server.invalid).toEqual([]);
  });

  it('unknown slash commands get a hint', async () => {
    const server = await fake({ script: [] });
    const cli = chat(server);
    cli.send('/stauts');
    await cli.waitFor(/unknown command \/stauts — did you mean \/status\?/);
    cli.send('/quit');
    expect((await cli.exited).code).toBe(0);
  });

  it('Ctrl+C during a model call cancels the turn, keeps the prompt, stores the turn as cancelled', async () => {
    const server = await fake({
      script: [
        { fault: 'slow-first-byte', delayMs: 20_000, reply: { content: 'too late' } },
        { content: 'back again' },
        { content: 'Handoff.' },
      ],
    });
    const cli = chat(server);
    cli.send('think hard');
    await waitForRequests(server, 1);
    cli.kill('SIGINT');
    await cli.waitFor(/turn cancelled/);
    cli.send('still there?');
    await cli.waitFor(/captain › back again/);
    expect(cli.stdout()).not.toContain('too late');
    cli.send('/quit');
    expect((await cli.exited).code).toBe(0);
    const store = await openStore({ path: join(cli.home, 'skipper.db') });
    try {
      const session = (await store.listSessions())[0]!.session;
      // The third turn is the handoff the model writes when the session ends.
      expect((await store.turns(session.id)).map((turn) => turn.outcome)).toEqual([
        'cancelled',
        'answered',
        'answered',
      ]);
    } finally {
      await store.close();
    }
    expect(server.invalid).toEqual([]);
  });

  it('Ctrl+C during a blocking travel leaves no dangling tool call, and the next request is a valid transcript', async () => {
    let travelTo: string | undefined;
    const server = await fake({
      script: [
        {
          toolCalls: [
            { name: 'spacemolt_auth', arguments: { action: 'register', username: 'traveller', empire: 'solarian' } },
          ],
        },
        { toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_system' } }] },
        (request) => {
          // Travel to the system's planet, read from the get_system text (the real table gives no distances): seed 42's
          // Sol Prime is the farthest POI from the station, several ticks at 1 s each.
          const tool = [...request.body.messages].reverse().find((m: { role: string }) => m.role === 'tool');
          travelTo = poiOfType(String(tool?.content ?? ''), 'planet');
          if (!travelTo) return { content: 'get_system listed no POIs' };
          return { toolCalls: [{ name: 'spacemolt', arguments: { action: 'travel', id: travelTo } }] };
        },
        { content: 'after the interruption' },
        { content: 'Handoff: interrupted mid-travel.' },
      ],
    });
    const home = makeHome();
    const cli = runCli(['--model', 'custom/test-model', '--base-url', server.url, '--tick-ms', '1000'], { home });
    cleanups.push(async () => {
      if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
      await cli.exited;
      removeHome(home);
    });
    cli.send('go somewhere');
    await cli.waitFor(/✓ spacemolt action=get_system/);
    await waitForRequests(server, 3);
    // Not a near POI picked by luck: seed 42's Sol lists several, and this one takes more than one tick.
    expect(travelTo).toBe('sol_prime');
    cli.kill('SIGINT');
    await cli.waitFor(/turn cancelled/);
    cli.send('what happened?');
    await cli.waitFor(/after the interruption/);
    cli.send('/quit');
    await cli.exited;
    expect(server.invalid).toEqual([]);
    const store = await openStore({ path: join(home, 'skipper.db') });
    try {
      const session = (await store.listSessions())[0]!.session;
      const messages = await store.messages(session.id);
      const answered = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
      for (const message of messages)
        for (const call of message.toolCalls ?? []) expect(answered.has(call.id)).toBe(true);
      const travelCall = messages
        .flatMap((m) => m.toolCalls ?? [])
        .find(
          (call) =>
            call.name === 'spacemolt' && (JSON.parse(call.arguments) as { action?: unknown }).action === 'travel',
        );
      expect(travelCall).toBeDefined();
      const travel = messages.find((m) => m.role === 'tool' && m.toolCallId === travelCall!.id);
      expect(travel?.isError).toBe(true);
      expect(travel?.content).toMatch(/cancel/);
      // The request after the interruption carries the travel call and its synthetic result (rule 9).
      const next = server.chatRequests[3]!.body.messages as Array<{
        role: string;
        content?: string;
        tool_call_id?: string;
      }>;
      expect(next.find((m) => m.role === 'tool' && m.tool_call_id === travelCall!.id)?.content).toMatch(/cancel/);
    } finally {
      await store.close();
    }
  });

  it('-s NAME resumes the session with its own model and endpoint, and the model sees the earlier turns', async () => {
    const server = await fake({
      script: [
        {
          toolCalls: [
            { name: 'spacemolt_auth', arguments: { action: 'register', username: 'memo_keeper', empire: 'solarian' } },
          ],
        },
        { content: 'First words.' },
        { content: 'HANDOFF-7Q: docked at Sol, cargo empty, next: mine nickel.' },
        { content: 'Picking up where we left off.' },
        { content: 'Second handoff.' },
      ],
    });
    const home = makeHome();
    cleanups.push(() => removeHome(home));
    const first = runCli(
      ['--model', 'custom/test-model', '--base-url', server.url, '--tick-ms', '0', '-s', 'logbook'],
      { home },
    );
    first.send('remember this');
    await first.waitFor(/First words\./);
    first.send('/quit');
    expect((await first.exited).code).toBe(0);
    // No --model, no --base-url: both come back from the session.
    const second = runCli(['-s', 'logbook', '--tick-ms', '0'], { home });
    second.send('go on');
    await second.waitFor(/Picking up where we left off\./);
    expect(second.stdout()).toMatch(/logbook \(resumed\).*model custom\/test-model/);
    second.send('/quit');
    expect((await second.exited).code).toBe(0);
    const resumed = server.chatRequests[3]!;
    const texts = userTexts(resumed);
    expect(texts[0]).toBe('remember this');
    expect(texts[1]).toMatch(/handoff/i);
    expect(texts.at(-1)).toBe('go on');
    expect(second.stdout()).toMatch(/captain memo_keeper/);
    // The first session's handoff opens the next one (memory across sessions, per captain).
    const system = (resumed.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'system');
    expect(system?.content).toContain('HANDOFF-7Q: docked at Sol');
    expect(server.invalid).toEqual([]);
    expect(server.exhausted).toBe(false);
  });

  it('SIGTERM ends a chat session (exit 143), cancelling the turn in flight', async () => {
    const server = await fake({
      script: [{ fault: 'slow-first-byte', delayMs: 20_000, reply: { content: 'never shown' } }],
    });
    const cli = chat(server);
    cli.send('think slowly');
    await waitForRequests(server, 1);
    cli.kill('SIGTERM');
    expect((await cli.exited).code).toBe(143);
    expect(cli.stdout()).not.toContain('never shown');
    const store = await openStore({ path: join(cli.home, 'skipper.db') });
    try {
      const session = (await store.listSessions())[0]!.session;
      expect((await store.turns(session.id)).map((turn) => turn.outcome)).toEqual(['cancelled']);
    } finally {
      await store.close();
    }
  });

  it('Ctrl+C twice at an idle prompt exits 130', async () => {
    const server = await fake({ script: [] });
    const cli = chat(server);
    await cli.waitFor(/Talk to your captain/);
    cli.kill('SIGINT');
    await cli.waitFor(/press Ctrl\+C again/);
    cli.kill('SIGINT');
    expect((await cli.exited).code).toBe(130);
  });
});

async function waitForRequests(server: FakeOpenAI, count: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  // The fake records requests as they arrive; poll its list (it has no event to await).
  while (server.chatRequests.length < count) {
    if (Date.now() > deadline)
      throw new Error(`fake server saw ${server.chatRequests.length} requests, wanted ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The id of the POI farthest from the star in a SpaceMolt get_system text: the tab table under `POIs (n):`, read
 * by its header row (id … distance_au), up to the next section. */
function poiOfType(text: string, type: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^POIs \(\d+\):$/.test(line));
  const header = lines[start + 1]?.split('\t') ?? [];
  const [id, kind] = [header.indexOf('id'), header.indexOf('type')];
  if (start < 0 || id < 0 || kind < 0) return undefined;
  for (const line of lines.slice(start + 2)) {
    const cells = line.split('\t');
    if (cells.length !== header.length) break;
    if (cells[kind] === type) return cells[id];
  }
  return undefined;
}
