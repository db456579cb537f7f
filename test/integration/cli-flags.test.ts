// Bad input at the command line: clear messages, exit code 2 for usage errors, no stack traces.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const homes: string[] = [];
const home = (): string => {
  const dir = makeHome();
  homes.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of homes.splice(0)) removeHome(dir);
});

async function run(
  args: string[],
  env: Record<string, string | undefined> = {},
  dir = home(),
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = runCli(args, { home: dir, env });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

function expectNoStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
}

describe('skipper flags', () => {
  it('--help teaches the flags and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--autoplay');
    expect(result.stdout).toContain('--model');
    expect(result.stdout).toContain('Examples:');
  });

  it('a non-numeric --tick-ms is a usage error (exit 2) that names the flag', async () => {
    const result = await run(['--tick-ms', 'fast']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/tick-ms/);
    expect(result.stderr).toMatch(/not a whole number/);
    expectNoStack(result.stderr);
  });

  it('an unknown flag exits 2', async () => {
    const result = await run(['--frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option/);
  });

  it('a bad --duration exits 2', async () => {
    const result = await run(['--autoplay', '--duration', 'soon']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not a duration/);
  });

  it('an unknown provider is a usage error listing the known ones', async () => {
    const result = await run(['--model', 'nope/some-model', '--autoplay', '--max-turns', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/openai/);
    expect(result.stderr).toMatch(/ollama/);
    expectNoStack(result.stderr);
  });

  it('a missing API key names the variable to set', async () => {
    const result = await run(['--model', 'openai/gpt-4o-mini', '--autoplay', '--max-turns', '1'], {
      OPENAI_API_KEY: undefined,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/OPENAI_API_KEY/);
    expectNoStack(result.stderr);
  });

  it('a broken config file is reported with its path, not a crash', async () => {
    const dir = home();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), '{ "model": ');
    const result = await run(['--autoplay', '--max-turns', '1'], {}, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, 'config.json'));
    expect(result.stderr).toMatch(/not valid JSON/);
    expectNoStack(result.stderr);
  });

  it('a config file with a wrong setting names the setting', async () => {
    const dir = home();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ tickMs: 'slow' }));
    const result = await run(['--autoplay', '--max-turns', '1'], {}, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/tickMs/);
  });

  it('a corrupt world file is reported and left untouched', async () => {
    const dir = home();
    const garbage = Buffer.from('this is not a SQLite database, just some bytes '.repeat(100));
    writeFileSync(join(dir, 'world.db'), garbage);
    const result = await run(['--autoplay', '--max-turns', '1', '--tick-ms', '0'], {}, dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(join(dir, 'world.db'));
    expect(result.stderr).toMatch(/left as it is/);
    expectNoStack(result.stderr);
    expect(readFileSync(join(dir, 'world.db')).equals(garbage)).toBe(true);
  });

  it('a corrupt session database is reported and left untouched', async () => {
    const dir = home();
    const garbage = Buffer.alloc(8192, 7);
    writeFileSync(join(dir, 'skipper.db'), garbage);
    const result = await run(['--autoplay', '--max-turns', '1', '--tick-ms', '0'], {}, dir);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(join(dir, 'skipper.db'));
    expect(result.stderr).toMatch(/left untouched/);
    expectNoStack(result.stderr);
    expect(readFileSync(join(dir, 'skipper.db')).equals(garbage)).toBe(true);
  });

  it('a path that cannot be used is a clear usage error, not a stack trace', async () => {
    const dir = home();
    const notAFolder = join(dir, 'plain-file');
    writeFileSync(notAFolder, 'x');
    const badHome = await run(['--home', join(notAFolder, 'skipper'), '--autoplay', '--max-turns', '1']);
    expect(badHome.code).toBe(2);
    expect(badHome.stderr).toMatch(/cannot use .*plain-file.*not a folder/);
    expectNoStack(badHome.stderr);
    const badOutput = await run(['export', 'nothing-here', '-o', join(dir, 'missing', 'out.md')], {}, dir);
    expect(badOutput.code).toBe(2);
    expect(badOutput.stderr).toMatch(/no session named "nothing-here"/);
    expectNoStack(badOutput.stderr);
  });

  it('serve refuses a bad flag with exit 2', async () => {
    const result = await run(['serve', '--systems', '3']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/systems/);
  });

  it('replay of an unknown session says how to list sessions', async () => {
    const result = await run(['replay', 'no-such-session']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/skipper sessions/);
  });
});
