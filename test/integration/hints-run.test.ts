// Issue 48: every printed hint runs as printed. After an autoplay run made with --home DIR, and one made with
// SKIPPER_HOME=DIR, the summary's `replay it:` and `go on:` commands are run through a shell exactly as printed (from
// the repository, where the hint's program is found, with SKIPPER_HOME pointing elsewhere for the --home run): each
// exits 0 and acts on the same session.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

/** Runs `command` through sh from the repository, as a person pasting it would. */
async function shell(command: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn('sh', ['-c', command], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1', ...env } });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out };
}

describe('hints run as printed', () => {
  for (const how of ['--home', 'SKIPPER_HOME'] as const) {
    it(`after a run made with ${how}`, async () => {
      const home = newHome();
      const elsewhere = newHome();
      const name = `hint-${how === '--home' ? 'flag' : 'env'}`;
      const args = ['--autoplay', '--max-ticks', '3', '--tick-ms', '0', '-s', name];
      const cli = how === '--home' ? runCli(['--home', home, ...args], { home: elsewhere }) : runCli(args, { home });
      expect((await cli.exited).code, cli.stderr()).toBe(0);
      const [, replay, goOn] = /replay it: (.+?) · go on: (.+)\n/.exec(cli.stdout()) ?? [];
      expect(replay, cli.stdout()).toBeDefined();
      // The --home run's hints carry it; the SKIPPER_HOME run's find the session through the same variable.
      const env = { SKIPPER_HOME: how === '--home' ? elsewhere : home };
      const replayed = await shell(replay!, env);
      expect(replayed.code, replayed.out).toBe(0);
      expect(replayed.out).toContain(`replay of ${name}`);
      const played = await shell(goOn!, env);
      expect(played.code, played.out).toBe(0);
      expect(played.out).toMatch(new RegExp(`session ${name} \\(resumed\\)`));
      expect(played.out).toMatch(/Autoplay ended: reached --max-ticks 3/);
    }, 120_000);
  }
});
