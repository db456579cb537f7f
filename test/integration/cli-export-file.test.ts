// `export -o FILE` (issue 30): a failed write is one plain line and exit 1, never a stack trace (a path that cannot be
// opened stays a usage error, exit 2); an existing file is kept unless --force says to overwrite it (exit 2).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) removeHome(dir);
});

async function homeWithSession(): Promise<string> {
  const home = makeHome();
  homes.push(home);
  const store = await openStore({ path: join(home, 'skipper.db') });
  const session = await store.createSession({ name: 'trip', game: 'embedded', model: 'builtin/autopilot' });
  await store.append(session.id, { role: 'user', content: 'mine some ore', turn: 1 });
  await store.append(session.id, { role: 'assistant', content: 'mining now', turn: 1, round: 1 });
  await store.close();
  return home;
}

async function run(home: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, { home });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

describe('export -o', () => {
  it.runIf(existsSync('/dev/full'))('a full disk (/dev/full) is one line and exit 1', async () => {
    const home = await homeWithSession();
    const result = await run(home, ['export', 'trip', '-o', '/dev/full']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('skipper: cannot write /dev/full: the disk is full.');
  });

  it('a path that cannot be opened (a folder) is one line and exit 2, like every bad path given', async () => {
    const home = await homeWithSession();
    const result = await run(home, ['export', 'trip', '-o', home]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cannot use .*: it is a folder, not a file/);
  });

  it('an existing file is refused without --force (exit 2) and overwritten with it', async () => {
    const home = await homeWithSession();
    const file = join(home, 'trip.md');
    writeFileSync(file, 'precious notes\n');
    const refused = await run(home, ['export', 'trip', '-o', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already exists: add --force to overwrite it/);
    expect(readFileSync(file, 'utf8')).toBe('precious notes\n');
    const forced = await run(home, ['export', 'trip', '-o', file, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('mining now');
  });

  it('a new file is written (0600)', async () => {
    const home = await homeWithSession();
    const file = join(home, 'new.jsonl');
    const result = await run(home, ['export', 'trip', '--format', 'jsonl', '-o', file]);
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('mining now');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
