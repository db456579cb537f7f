// No empty sessions: a session's row is written with its first turn. A chat opened and quit without a turn (stdin
// closed at once, or after only slash commands) stores nothing, while one line to the captain stores the session;
// a name given with -s stays free until something is played under it. The built CLI, embedded minimolt, real SQLite.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

async function storedSessions(home: string): Promise<Array<{ name: string; turns: number; model: string }>> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    return (await store.listSessions()).map((summary) => ({
      name: summary.session.name,
      turns: summary.turns,
      model: summary.session.model,
    }));
  } finally {
    await store.close();
  }
}

async function sessionsCommand(home: string): Promise<string> {
  const cli = runCli(['sessions'], { home });
  expect((await cli.exited).code).toBe(0);
  return cli.stdout();
}

describe.concurrent('a chat opened and quit without a turn', () => {
  it('stores no session when stdin closes at once', async () => {
    const home = newHome();
    const cli = runCli(['--tick-ms', '0'], { home });
    await cli.waitFor(/session (\S+)/);
    cli.child.stdin.end();
    expect((await cli.exited).code).toBe(0);
    expect(await storedSessions(home)).toEqual([]);
    expect(await sessionsCommand(home)).toMatch(/^No sessions yet\./);
  });

  it('stores none after slash commands only (/model switched, /help), and leaves the -s name free', async () => {
    const home = newHome();
    const cli = runCli(['--tick-ms', '0', '-s', 'quiet-run'], { home });
    await cli.waitFor(/session quiet-run/);
    cli.send('/model builtin/random');
    await cli.waitFor(/builtin\/random/, { after: cli.stdout().length });
    cli.send('/help');
    cli.child.stdin.end();
    expect((await cli.exited).code).toBe(0);
    expect(await storedSessions(home)).toEqual([]);
    // The name was never taken: playing under it now creates it, as a new session.
    const play = runCli(['--tick-ms', '0', '-s', 'quiet-run', '--autoplay', '--max-turns', '1'], { home });
    expect((await play.exited).code).toBe(0);
    expect(play.stdout()).not.toContain('(resumed)');
    expect(await storedSessions(home)).toEqual([{ name: 'quiet-run', turns: 1, model: 'builtin/autopilot' }]);
  });

  it('stores the session, with what changed before the turn, once one line is sent', async () => {
    const home = newHome();
    const cli = runCli(['--tick-ms', '0'], { home });
    const [, name] = await cli.waitFor(/session (\S+)/);
    cli.send('/model builtin/random');
    await cli.waitFor(/builtin\/random/, { after: cli.stdout().length });
    const before = cli.stdout().length;
    cli.send('look around');
    await cli.waitFor(/captain › /, { after: before });
    cli.child.stdin.end();
    expect((await cli.exited).code).toBe(0);
    const sessions = await storedSessions(home);
    expect(sessions).toEqual([{ name, turns: 1, model: 'builtin/random' }]);
    expect(await sessionsCommand(home)).toContain(name);
  });
});

describe.concurrent('a stored session resumed and left without a turn', () => {
  it('writes no new handoff: the one from the last sitting stays the latest', async () => {
    const home = newHome();
    const play = runCli(['--tick-ms', '0', '-s', 'short-run', '--autoplay', '--max-turns', '1'], { home });
    expect((await play.exited).code).toBe(0);
    const handoffs = async (): Promise<string[]> => {
      const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
      try {
        const captain = (await store.listSessions())[0]?.session.username ?? '';
        return (await store.memory.list(`embedded#${captain}`, { kind: 'handoff' })).map((entry) => entry.text);
      } finally {
        await store.close();
      }
    };
    const first = await handoffs();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/Last session: 1 turn/);
    const resumed = runCli(['--tick-ms', '0', '-s', 'short-run'], { home });
    await resumed.waitFor(/\(resumed\)/);
    resumed.send('/status');
    resumed.send('/quit');
    expect((await resumed.exited).code).toBe(0);
    expect(await handoffs()).toEqual(first);
    expect(await storedSessions(home)).toEqual([{ name: 'short-run', turns: 1, model: 'builtin/autopilot' }]);
  });
});
