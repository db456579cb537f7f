// Chat survives a model error (issue 29): a refused key on turn 2 is said with what to do, the turn is stored as
// failed, the prompt comes back, /retry and /model work from there, and /quit still exits 0.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
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

function chat(server: FakeOpenAI): CliRun {
  const home = makeHome();
  const cli = runCli(['--model', 'custom/test-model', '--base-url', server.url, '--tick-ms', '0'], { home });
  cleanups.push(async () => {
    if (cli.child.exitCode === null) {
      cli.child.kill('SIGKILL');
      await cli.exited;
    }
    removeHome(home);
  });
  return cli;
}

const refused = { fault: 'status', status: 401, body: { error: { message: 'Incorrect API key provided' } } } as const;

describe('chat after a model error', () => {
  it('keeps the prompt on a 401, stores the turn as failed, and plays on with /model builtin/autopilot', async () => {
    const server = await fake({ script: [{ content: 'Aye, captain. All quiet.' }, refused, refused] });
    const cli = chat(server);
    cli.send('hello captain');
    await cli.waitFor(/Aye, captain\. All quiet\./);
    cli.send('look around');
    await cli.waitFor(/refused the request \(HTTP 401\)[^\n]*—[^\n]*/, { stream: 'stderr' });
    await cli.waitFor(/\/retry sends your line again, \/model NAME switches model/, { stream: 'stderr' });
    expect(cli.stderr()).not.toMatch(/plays without a model/);
    // /retry sends the same line; a second failure in a row points at the model that needs no model.
    cli.send('/retry');
    await cli.waitFor(/`\/model builtin\/autopilot` plays without a model/, { stream: 'stderr' });
    expect(cli.child.exitCode).toBeNull();
    cli.send('/model builtin/autopilot');
    cli.send('play a turn');
    await cli.waitFor(/plays a turn now/);
    const afterTurn = cli.stdout().length;
    cli.send('/status');
    await cli.waitFor(/builtin\/autopilot/, { after: afterTurn });
    cli.send('/quit');
    expect((await cli.exited).code).toBe(0);
    expect(server.chatRequests).toHaveLength(3);
    const store = await openStore({ path: join(cli.home, 'skipper.db') });
    try {
      const session = (await store.listSessions())[0]!.session;
      const outcomes = (await store.turns(session.id)).map((turn) => turn.outcome);
      expect(outcomes.slice(0, 3)).toEqual(['answered', 'failed', 'failed']);
      expect(outcomes[3]).not.toBe('failed');
    } finally {
      await store.close();
    }
  }, 60_000);

  it('keeps the prompt when the endpoint dies mid-session (connection refused)', async () => {
    const server = await fake({ script: [{ content: 'Aye, captain. All quiet.' }] });
    const cli = chat(server);
    cli.send('hello captain');
    await cli.waitFor(/Aye, captain\. All quiet\./);
    await server.close();
    cli.send('look around');
    await cli.waitFor(/cannot reach [^\n]* — [^\n]*/, { stream: 'stderr' });
    await cli.waitFor(/\/retry sends your line again/, { stream: 'stderr' });
    cli.send('/retry');
    await cli.waitFor(/`\/model builtin\/autopilot` plays without a model/, { stream: 'stderr' });
    cli.send('/quit');
    expect((await cli.exited).code).toBe(0);
  }, 60_000);
});
