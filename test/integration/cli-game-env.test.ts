// `--game-env KEY=VALUE` at the command line: a value without "=" is a usage error (exit 2) that shows the form.
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const homes: string[] = [];
afterEach(() => {
  for (const dir of homes.splice(0)) removeHome(dir);
});

describe('--game-env', () => {
  it('a value without "=" exits 2 naming the flag and the KEY=VALUE form, no stack trace', async () => {
    const home = makeHome();
    homes.push(home);
    const cli = runCli(['--game', 'stdio:node game.js', '--game-env', 'NOEQUALS'], { home });
    cli.child.stdin.end();
    const { code } = await cli.exited;
    expect(code).toBe(2);
    expect(cli.stderr()).toMatch(/--game-env/);
    expect(cli.stderr()).toMatch(/KEY=VALUE/);
    expect(cli.stderr()).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  });
});
