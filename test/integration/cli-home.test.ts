// The home and what the person typed: a file where the home or its config belongs is a usage error (exit 2), bad
// flags are refused before anything is created, read commands read a store they may not write, the commands a run
// suggests carry its --home, and a named account the game refuses stops the program.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const homes: string[] = [];
const home = (): string => {
  const dir = makeHome();
  homes.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of homes.splice(0)) {
    chmodSync(dir, 0o700);
    removeHome(dir);
  }
});

async function run(
  args: string[],
  options: { home?: string; env?: Record<string, string | undefined> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, { home: options.home ?? home(), ...(options.env ? { env: options.env } : {}) });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

function expectNoStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at .+:\d+:\d+\)?/);
}

/** A home holding one session (two messages), written and closed like a finished run leaves it. */
async function homeWithSession(): Promise<string> {
  const dir = home();
  const store = await openStore({ path: join(dir, 'skipper.db') });
  const session = await store.createSession({ name: 'kept', game: 'embedded', model: 'builtin/autopilot' });
  await store.append(session.id, { role: 'user', content: 'mine some ore', turn: 1 });
  await store.append(session.id, { role: 'assistant', content: 'Mining.', toolCalls: [], turn: 1, round: 1 });
  await store.close();
  return dir;
}

describe('the home', () => {
  it('SKIPPER_HOME naming a file is a usage error (exit 2), not a stack trace', async () => {
    const dir = home();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    for (const args of [['sessions'], ['--autoplay', '--max-turns', '1', '--tick-ms', '0'], ['export', 'kept']]) {
      const result = await run(args, { home: file });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toMatch(/not a folder/);
      expectNoStack(result.stderr);
    }
  });

  it('a config.json that is a folder is a usage error (exit 2) that names it', async () => {
    const dir = home();
    mkdirSync(join(dir, 'config.json'));
    const result = await run(['--autoplay', '--max-turns', '1', '--tick-ms', '0'], { home: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, 'config.json'));
    expect(result.stderr).toMatch(/folder, not a file/);
    expectNoStack(result.stderr);
  });

  it('--model nonsense (and a bad --session name) are refused before anything is created in the home', async () => {
    const dir = home();
    const model = await run(['--model', 'nonsense', '--autoplay', '--max-turns', '1'], { home: dir });
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/PROVIDER\/MODEL/);
    const session = await run(['-s', 'no spaces allowed!', '--autoplay', '--max-turns', '1'], { home: dir });
    expect(session.code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('sessions and export read a store in a read-only folder, leaving file, folder and times unchanged', async () => {
    const dir = await homeWithSession();
    const file = join(dir, 'skipper.db');
    chmodSync(file, 0o400);
    chmodSync(dir, 0o500);
    const before = { bytes: readFileSync(file), file: statSync(file), entries: readdirSync(dir).sort() };
    const sessions = await run(['sessions'], { home: dir });
    expect(sessions.stderr).toBe('');
    expect(sessions.code).toBe(0);
    expect(sessions.stdout).toMatch(/^kept\s+embedded/m);
    const exported = await run(['export', 'kept', '--format', 'jsonl'], { home: dir });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('mine some ore');
    // Root ignores file modes: these checks hold whoever runs the tests. The database was not written or chmodded,
    // no logs folder was made; only SQLite's own read index (-shm/-wal) may appear where the folder lets it.
    expect(readFileSync(file).equals(before.bytes)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(before.file.mtimeMs);
    expect(statSync(file).ctimeMs).toBe(before.file.ctimeMs);
    expect(statSync(file).mode & 0o777).toBe(0o400);
    expect(
      readdirSync(dir)
        .filter((entry) => !/^skipper\.db-(shm|wal)$/.test(entry))
        .sort(),
    ).toEqual(before.entries);
  });

  it('sessions in a new home says there are none and creates nothing', async () => {
    const dir = home();
    const result = await run(['sessions'], { home: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/No sessions yet/);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('hints carry --home', () => {
  it('a run given --home DIR prints hints with --home DIR, and the hint runs from another SKIPPER_HOME', async () => {
    const dir = home();
    const play = await run(['--autoplay', '--max-ticks', '3', '--tick-ms', '0', '-s', 'home-hint', '--home', dir]);
    expect(play.code, play.stderr).toBe(0);
    const [, given, name, goOn] =
      play.stdout.match(/replay it: .* --home (\S+) replay (\S+) · go on: .* --home (\S+) -s home-hint/) ?? [];
    expect(given).toBe(dir);
    expect(name).toBe('home-hint');
    expect(goOn).toBe(dir);
    // As printed: --home before the command goes to it.
    const replay = await run(['--home', given ?? '', 'replay', name ?? '', '--instant']);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain('replay of home-hint');
  }, 60_000);

  it('sessions --home DIR on an empty home suggests playing with --home DIR', async () => {
    const dir = home();
    const listed = await run(['sessions', '--home', dir]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`Start one with \`\\S+(?: \\S+)? --home ${dir}\` or`));
  }, 30_000);
});

describe('a named account the game refuses', () => {
  it('a wrong SKIPPER_GAME_PASSWORD for --username stops with a clear error (exit 1) instead of playing logged out', async () => {
    const result = await run(['--username', 'nobody_here', '--autoplay', '--max-turns', '1', '--tick-ms', '0'], {
      env: { SKIPPER_GAME_PASSWORD: 'definitely-wrong-password' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refused the login of "nobody_here"/);
    expect(result.stderr).toMatch(/SKIPPER_GAME_PASSWORD/);
    expect(result.stderr).not.toContain('definitely-wrong-password');
    expectNoStack(result.stderr);
    expect(result.stdout).not.toMatch(/Autoplay ended/);
  });

  it('--username with no password and no stored account is the ordinary start (not logged in yet)', async () => {
    const result = await run(['--username', 'new_face', '--autoplay', '--max-turns', '1', '--tick-ms', '0']);
    expect(result.stderr).not.toMatch(/refused/);
    expect(result.code).toBe(0);
  });
});
