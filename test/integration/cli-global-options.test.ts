// Global options mean the same before and after a command (issue 30): `skipper --home B sessions rm x` deletes from B,
// not from $SKIPPER_HOME; an option a command has not is refused (exit 2); a read command does not create a home that
// is not there. The built CLI with two temp homes: A as $SKIPPER_HOME, B given with --home.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

async function run(args: string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, { home });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** A home holding sessions of these names, written and closed like finished runs leave them. */
async function homeWith(...names: string[]): Promise<string> {
  const dir = newHome();
  const store = await openStore({ path: join(dir, 'skipper.db') });
  for (const name of names) {
    const session = await store.createSession({ name, game: 'embedded', model: 'builtin/autopilot' });
    await store.append(session.id, { role: 'user', content: 'mine some ore', turn: 1 });
  }
  await store.close();
  return dir;
}

async function sessionNames(home: string): Promise<string[]> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    return (await store.listSessions()).map((row) => row.session.name);
  } finally {
    await store.close();
  }
}

describe('--home before a command', () => {
  it('sessions rm deletes from the --home given before it and leaves $SKIPPER_HOME untouched', async () => {
    const a = await homeWith('x', 'only-in-a');
    const b = await homeWith('x', 'only-in-b');
    const result = await run(['--home', b, 'sessions', 'rm', 'x', '--yes'], a);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`deleted session x from ${join(b, 'skipper.db')}\n`);
    expect(await sessionNames(b)).toEqual(['only-in-b']);
    expect((await sessionNames(a)).sort()).toEqual(['only-in-a', 'x']);
  });

  it('sessions --home B and --home B sessions list the same sessions, those of B', async () => {
    const a = await homeWith('in-a');
    const b = await homeWith('in-b');
    const after = await run(['sessions', '--home', b, '--json'], a);
    const before = await run(['--home', b, 'sessions', '--json'], a);
    const jsonFirst = await run(['--json', '--home', b, 'sessions'], a);
    expect(after.code).toBe(0);
    expect(before).toEqual(after);
    expect(jsonFirst).toEqual(after);
    const names = after.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { name: string }).name);
    expect(names).toEqual(['in-b']);
  });

  it('a different --home before and after the command is a usage error that says where to put it', async () => {
    const a = await homeWith('in-a');
    const b = await homeWith('x');
    const result = await run(['--home', b, 'sessions', 'rm', 'x', '--yes', '--home', a], a);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--home was given twice with different values.*give it once, after the command/);
    expect(await sessionNames(b)).toEqual(['x']);
  });

  it('an option the command has not is refused before it acts (exit 2), naming where it goes', async () => {
    const a = await homeWith('x');
    const result = await run(['--model', 'openai/gpt-4o-mini', 'sessions', 'rm', 'x', '--yes'], a);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('`skipper sessions rm` has no --model option: it goes with `skipper` alone');
    expect(await sessionNames(a)).toEqual(['x']);
  });
});

describe('a --home that does not exist', () => {
  it('sessions says nothing is stored there (exit 1) and does not create it', async () => {
    const a = await homeWith('in-a');
    const missing = join(newHome(), 'typo');
    for (const args of [
      ['--home', missing, 'sessions'],
      ['sessions', '--home', missing],
      ['memory', 'list', '--home', missing],
      ['sessions', 'rm', 'in-a', '--yes', '--home', missing],
    ]) {
      const result = await run(args, a);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`skipper: no Skipper home at ${missing}: nothing stored there yet\n`);
      expect(existsSync(missing)).toBe(false);
    }
    expect(await sessionNames(a)).toEqual(['in-a']);
  });
});
