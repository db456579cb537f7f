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
function homeWith(...names: string[]): string {
  const dir = newHome();
  const store = openStore({ path: join(dir, 'skipper.db') });
  for (const name of names) {
    const session = store.createSession({ name, game: 'embedded', model: 'builtin/autopilot' });
    store.append(session.id, { role: 'user', content: 'mine some ore', turn: 1 });
  }
  store.close();
  return dir;
}

function sessionNames(home: string): string[] {
  const store = openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    return store.listSessions().map((row) => row.session.name);
  } finally {
    store.close();
  }
}

describe('--home before a command', () => {
  it('sessions rm deletes from the --home given before it and leaves $SKIPPER_HOME untouched', async () => {
    const a = homeWith('x', 'only-in-a');
    const b = homeWith('x', 'only-in-b');
    const result = await run(['--home', b, 'sessions', 'rm', 'x', '--yes'], a);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`deleted session x from ${join(b, 'skipper.db')}\n`);
    expect(sessionNames(b)).toEqual(['only-in-b']);
    expect(sessionNames(a).sort()).toEqual(['only-in-a', 'x']);
  });

  it('sessions --home B and --home B sessions list the same sessions, those of B', async () => {
    const a = homeWith('in-a');
    const b = homeWith('in-b');
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
    const a = homeWith('in-a');
    const b = homeWith('x');
    const result = await run(['--home', b, 'sessions', 'rm', 'x', '--yes', '--home', a], a);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--home was given twice with different values.*give it once, after the command/);
    expect(sessionNames(b)).toEqual(['x']);
  });

  it('an option the command has not is refused before it acts (exit 2), naming where it goes', async () => {
    const a = homeWith('x');
    const result = await run(['--model', 'openai/gpt-4o-mini', 'sessions', 'rm', 'x', '--yes'], a);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('`skipper sessions rm` has no --model option: it goes with `skipper` alone');
    expect(sessionNames(a)).toEqual(['x']);
  });
});

describe('a --home that does not exist', () => {
  it('sessions says nothing is stored there (exit 1) and does not create it', async () => {
    const a = homeWith('in-a');
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
    expect(sessionNames(a)).toEqual(['in-a']);
  });
});
