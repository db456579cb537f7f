// Credentials survive a store repair (issue 30): when skipper.db is damaged and Skipper advises moving it away, the
// game passwords it held are read out beside it first and the fresh store takes them back in, so the captain logs in
// as before; where they cannot be read out the message says how to keep them; and a captain named with --username
// whose password is lost is reported, never registered again under another name.
import { renameSync, existsSync, writeFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

async function run(home: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, { home });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

const play = (session: string, ...extra: string[]): string[] => [
  '-s',
  session,
  '--autoplay',
  '--max-ticks',
  '5',
  '--tick-ms',
  '0',
  '--json',
  ...extra,
];

function rows<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** A home whose autopilot registered one captain in the embedded world; returns it and the captain's name. */
async function homeWithCaptain(): Promise<{ home: string; username: string; password: string }> {
  const home = newHome();
  const first = await run(home, play('first'));
  expect(first.code, first.stderr).toBe(0);
  const [account] = rows<{ username: string; password: string }>(
    join(home, 'skipper.db'),
    'SELECT username, password FROM credentials',
  );
  expect(account).toBeDefined();
  return { home, ...account! };
}

function moveAside(home: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    const file = join(home, `skipper.db${suffix}`);
    if (existsSync(file)) renameSync(file, `${file}.broken`);
  }
}

const worldPlayers = (home: string): string[] =>
  rows<{ username: string }>(join(home, 'world.db'), 'SELECT username FROM players').map((row) => row.username);

describe('credentials survive a store repair', () => {
  it('a damaged store has its passwords saved beside it; after moving it away the captain logs in as before', async () => {
    const { home, username, password } = await homeWithCaptain();
    const db = new Database(join(home, 'skipper.db'));
    db.exec('DROP TABLE memory'); // damage of the kind open refuses: a table is missing
    db.close();

    const refused = await run(home, play('second'));
    expect(refused.code).toBe(1);
    const rescued = join(home, 'skipper.db.credentials.json');
    expect(refused.stderr).toContain('Move it away');
    expect(refused.stderr).toContain(`Its game passwords (1 account) were saved to ${rescued}`);
    expect(refused.stderr).not.toContain(password);
    expect(statSync(rescued).mode & 0o777).toBe(0o600);
    expect(readFileSync(rescued, 'utf8')).toContain(username);

    moveAside(home);
    const again = await run(home, play('second', '--username', username));
    expect(again.code, again.stderr).toBe(0);
    // Logged in, not registered: the world still has the one captain, and the fresh store its password.
    expect(worldPlayers(home)).toEqual([username]);
    expect(rows(join(home, 'skipper.db'), 'SELECT username, password FROM credentials')).toEqual([
      { username, password },
    ]);
    expect(existsSync(rescued)).toBe(false);
  }, 90_000);

  it('a store whose passwords cannot be read out: the message says how to keep them', async () => {
    const { home } = await homeWithCaptain();
    const file = join(home, 'skipper.db');
    for (const suffix of ['-wal', '-shm'])
      if (existsSync(file + suffix)) renameSync(file + suffix, `${file + suffix}.x`);
    writeFileSync(file, Buffer.alloc(8192, 0x41)); // not a database any more
    const refused = await run(home, play('second'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not a readable Skipper database');
    expect(refused.stderr).toContain(
      `Its game passwords could not be read out: before moving it, try \`sqlite3 ${file} "SELECT game_url, username, password FROM credentials"\``,
    );
    expect(refused.stderr).toContain('--username NAME and SKIPPER_GAME_PASSWORD');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('a captain named with --username whose password is lost is reported, not registered under another name', async () => {
    const { home, username } = await homeWithCaptain();
    moveAside(home); // moved away by hand, nothing rescued
    const lost = await run(home, play('second', '--username', username));
    expect(lost.code).not.toBe(0);
    expect(lost.stderr).toContain(username);
    expect(lost.stderr).toContain('if that captain is yours, its password in SKIPPER_GAME_PASSWORD');
    expect(lost.stderr).not.toMatch(/\n\s+at /);
    expect(worldPlayers(home)).toEqual([username]);
  }, 90_000);
});
