// Rule 19 as people meet it: while one Skipper plays a session, a second on the same name is refused (exit 1, the
// first's pid named, no stack trace); once the first has ended, the session plays again.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';

const newHome = tempHomes();
const running: CliRun[] = [];
afterEach(async () => {
  for (const cli of running.splice(0)) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.kill('SIGKILL');
      await cli.exited;
    }
  }
});

function start(args: string[], home: string): CliRun {
  const cli = runCli(args, { home });
  running.push(cli);
  return cli;
}

function leaseRows(home: string): number {
  const db = new Database(join(home, 'skipper.db'), { readonly: true });
  const { n } = db.prepare("SELECT count(*) AS n FROM leases WHERE key LIKE 'session:%'").get() as { n: number };
  db.close();
  return n;
}

describe('one writer per session (rule 19)', () => {
  it('refuses a second Skipper on a session being played, and plays it again once the first has ended', async () => {
    const home = newHome();
    const first = start(['-s', 'demo', '--autoplay', '--max-ticks', '400', '--tick-ms', '50', '--json'], home);
    // After its first turn the session's row is stored: the second run resumes it, and must be refused.
    await first.waitFor(/"type":"turn-end"/, { timeoutMs: 30_000 });

    const second = start(['-s', 'demo', '--autoplay', '--max-ticks', '5', '--tick-ms', '0'], home);
    const refused = await second.exited;
    expect(refused.code).toBe(1);
    expect(second.stderr()).toMatch(
      new RegExp(
        `^skipper: session demo is being played by another Skipper \\(pid ${first.child.pid} on host \\S+, ` +
          `since \\d\\d:\\d\\d:\\d\\d\\); stop that one first, or wait 30 s if it was killed\\n$`,
      ),
    );
    expect(second.stdout()).toBe(''); // refused before the game was opened: nothing played, nothing printed
    expect(first.child.exitCode).toBeNull(); // the first plays on

    first.kill('SIGINT');
    expect((await first.exited).code).toBe(130);
    expect(leaseRows(home)).toBe(0); // released on the way out, not merely left to a dead pid

    const third = start(['-s', 'demo', '--autoplay', '--max-ticks', '5', '--tick-ms', '0', '--json'], home);
    expect((await third.exited).code).toBe(0);
    expect(third.stdout()).toMatch(/"type":"session-start","session":"demo"[^\n]*"resumed":true/);
    expect(leaseRows(home)).toBe(0);
  }, 90_000);

  it('a new session is leased while still a draft: a second run of its name is refused before either stored it', async () => {
    const home = newHome();
    // Chat stores a session with its first turn: until then it is a draft, and a second run finds no row to resume.
    const chat = start(['-s', 'fresh', '--tick-ms', '0'], home);
    await chat.waitFor(/skipper · session fresh · /, { timeoutMs: 20_000 });
    const second = start(['-s', 'fresh', '--autoplay', '--max-ticks', '5', '--tick-ms', '0'], home);
    expect((await second.exited).code).toBe(1);
    expect(second.stderr()).toMatch(
      new RegExp(`^skipper: session fresh is being played by another Skipper \\(pid ${chat.child.pid} on host`),
    );
    chat.send('/quit');
    expect((await chat.exited).code, chat.stderr()).toBe(0);
    expect(leaseRows(home)).toBe(0);
    // Quit without a turn: nothing stored, the name is free again.
    const third = start(['-s', 'fresh', '--autoplay', '--max-ticks', '5', '--tick-ms', '0', '--json'], home);
    expect((await third.exited).code, third.stderr()).toBe(0);
    expect(third.stdout()).toMatch(/"type":"session-start","session":"fresh"[^\n]*"resumed":false/);
  }, 60_000);
});
