// Stored sessions from the command line: export round trip with secrets redacted, the password never in the log
// or on screen, resume, and deletion that asks first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, parseJsonlExport } from '../../internal/store/index.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const home = makeHome();
afterAll(() => removeHome(home));

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, { home });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('sessions, export, resume', () => {
  it('plays, exports (jsonl round trip, markdown), never shows the password, resumes, and deletes on request', async () => {
    const play = await run(['--autoplay', '--max-turns', '3', '--tick-ms', '0', '-s', 'voyage']);
    expect(play.code, play.stderr).toBe(0);

    const store = await openStore({ path: join(home, 'skipper.db') });
    let password: string;
    let stored;
    try {
      const session = await store.getSession('voyage');
      stored = await store.messages(session.id);
      const credential = await store.credentials.latest('embedded://minimolt');
      expect(credential).toBeDefined();
      password = credential!.password;
    } finally {
      await store.close();
    }
    expect(password).toMatch(/^[0-9a-f]{64}$/);

    const jsonlFile = join(home, 'voyage.jsonl');
    const jsonl = await run(['export', 'voyage', '--format', 'jsonl', '-o', jsonlFile]);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    const exported = parseJsonlExport(readFileSync(jsonlFile, 'utf8'));
    expect(exported.session.name).toBe('voyage');
    expect(exported.messages.map((m) => m.id)).toEqual(stored.map((m) => m.id));
    expect(exported.messages.map((m) => m.content)).toEqual(stored.map((m) => m.content));

    const markdown = await run(['export', 'voyage', '--format', 'md']);
    expect(markdown.code, markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain('## Turn 1');
    expect(markdown.stdout).toMatch(/mine|travel|sell/);

    // Rule 14: the password is nowhere a person or a file outside the credential table could see it.
    const log = readFileSync(join(home, 'logs', 'skipper.log'), 'utf8');
    for (const text of [play.stdout, play.stderr, readFileSync(jsonlFile, 'utf8'), markdown.stdout, log]) {
      expect(text).not.toContain(password);
    }

    const resumed = await run(['--autoplay', '--max-turns', '1', '--tick-ms', '0', '-s', 'voyage']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('voyage (resumed)');
    expect(resumed.stdout).toMatch(/── turn 4 · autoplay ──/);

    const badPath = await run(['export', 'voyage', '-o', join(home, 'no-such-folder', 'voyage.md')]);
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toMatch(/cannot use .*no-such-folder.*no such file or folder/);
    expect(badPath.stderr).not.toMatch(/\n\s+at /);

    const refuse = await run(['sessions', 'rm', 'voyage']);
    expect(refuse.code, refuse.stderr).toBe(2);
    expect(refuse.stderr).toMatch(/--yes/);
    const remove = await run(['sessions', 'rm', 'voyage', '--yes']);
    expect(remove.code, remove.stderr).toBe(0);
    const list = await run(['sessions']);
    expect(list.stdout).not.toContain('voyage');
  }, 90_000);

  it('report on a pipe clips nothing: the header keeps its ticks and the whole goal', async () => {
    const goal = 'mine whatever the belt has, sell it at the nearest station, and keep the hold busy until told';
    const play = await run(['--autoplay', goal, '--max-turns', '2', '--tick-ms', '0', '-s', 'piped-report']);
    expect(play.code, play.stderr).toBe(0);
    const report = await run(['report', 'piped-report']);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(new RegExp(`\\d+ ticks · goal: ${goal}\n`));
    expect(report.stdout).not.toContain('…\n');
  }, 60_000);

  it('replay --from past the last turn says how many turns there are and exits 2', async () => {
    const play = await run(['--autoplay', '--max-turns', '2', '--tick-ms', '0', '-s', 'short']);
    expect(play.code, play.stderr).toBe(0);
    const past = await run(['replay', 'short', '--instant', '--from', '5']);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('session short has 2 turns: --from 5 is past the end');
    const last = await run(['replay', 'short', '--instant', '--from', '2']);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toContain('turn 2');
  }, 60_000);
});
