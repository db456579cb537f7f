// Leaving chat (issue 48) prints one line naming the session and the exact command that goes on with it, carrying the
// run's --home; that command, run as printed, resumes the session.
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { repoRoot, runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

it('chat ends with the session and the command that goes on with it, which runs as printed', async () => {
  const home = newHome();
  const elsewhere = newHome(); // SKIPPER_HOME points here: only a hint that carries --home finds the session
  const cli = runCli(['--home', home, '--tick-ms', '0', '-s', 'harbour'], { home: elsewhere });
  await cli.waitFor(/captain/i, { timeoutMs: 20_000 });
  cli.send('look around');
  await cli.waitFor(/captain › [^\n]*Next: /, { timeoutMs: 30_000 });
  cli.send('/quit');
  expect((await cli.exited).code, cli.stderr()).toBe(0);
  const [, command] = /session harbour · go on with it: ([^\n]+)\n/.exec(cli.stdout()) ?? [];
  expect(command, cli.stdout()).toBeDefined();
  expect(command).toContain(`--home ${home}`);
  expect(command).toMatch(/ -s harbour$/);
  // Run as printed, through a shell, from the repository (where the hint's program is found).
  const again = spawn('sh', ['-c', `${command} --tick-ms 0`], {
    cwd: repoRoot,
    env: { ...process.env, SKIPPER_HOME: elsewhere, NO_COLOR: '1' },
  });
  let out = '';
  again.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  again.stdin.end('/quit\n');
  const code = await new Promise<number | null>((resolve) => again.on('exit', resolve));
  expect(code, out).toBe(0);
  expect(out).toMatch(/session harbour \(resumed\)/);
}, 90_000);
