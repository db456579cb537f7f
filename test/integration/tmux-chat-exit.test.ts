// Leaving chat in a real terminal (issue 29): /quit, Ctrl+D at an empty prompt, SIGTERM, Ctrl+C twice — each leaves the
// status line erased and the cursor at the start of a fresh line, so what the shell prints next stands on its own
// row (the `echo "[exited N]"` after the CLI plays the shell's prompt). tmux as in tmux-chat-typing.test.ts: a
// private server on its own socket; skipped without tmux, except under CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { cliPath, tempHomes } from '../fakes/cli-process.js';

const hasTmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
if (!hasTmux && process.env.CI)
  throw new Error('tmux is required under CI (.ci/run installs it: apt-get install tmux)');
if (!hasTmux) console.warn('tmux-chat-exit: tmux not found, skipped (apt-get install tmux to run it)');

const socket = `skipper-exit-${process.pid}`;
const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const screen = (name: string): string => tmux('capture-pane', '-p', '-J', '-t', name).replace(/\s+$/, '');

async function until(name: string, what: string, test: (text: string) => boolean): Promise<string> {
  const started = Date.now();
  for (;;) {
    const text = screen(name);
    if (test(text)) return text;
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!hasTmux)('leaving chat in tmux', () => {
  const homes = tempHomes();
  const servers: FakeOpenAI[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  afterAll(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
  });

  /** Starts chat in a tmux session and plays one answered turn (the status line is up after it). */
  async function start(name: string): Promise<void> {
    const fake = await startFakeOpenAI({
      script: [{ content: 'Aye, captain. All quiet.' }, { content: 'Handoff: a quiet day.' }],
    });
    servers.push(fake);
    const command = ['env', `SKIPPER_HOME=${homes()}`, 'NO_COLOR=1', 'TERM=xterm-256color', process.execPath]
      .concat([cliPath, '--model', 'custom/test-model', '--base-url', fake.url, '--tick-ms', '0'])
      .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', `${command}; echo "[exited $?]"; sleep 30`);
    await until(name, 'the prompt', (text) => /you ›\s*$/.test(text));
    tmux('send-keys', '-t', name, '-l', 'hello');
    tmux('send-keys', '-t', name, 'Enter');
    await until(name, 'the answer', (text) => /All quiet\.[\s\S]*you ›\s*$/.test(text));
  }

  /** The shell's line is a row of its own, and nothing of the status line or the prompt is left around it. */
  async function expectCleanExit(name: string, code: number): Promise<void> {
    const end = await until(name, 'the CLI to exit', (text) => /\[exited \d+\]/.test(text));
    const rows = end.split('\n');
    const last = rows.findIndex((row) => row.includes('[exited'));
    expect(rows[last]).toBe(`[exited ${code}]`);
    // The row above is not an empty prompt left behind.
    expect(rows[last - 1] ?? '').not.toMatch(/^you ›\s*$/);
    // Nor the status line (its token count and cost).
    expect(rows[last - 1] ?? '').not.toMatch(/\btok\b|\$\d/);
  }

  it('/quit', async () => {
    await start('quit');
    tmux('send-keys', '-t', 'quit', '-l', '/quit');
    tmux('send-keys', '-t', 'quit', 'Enter');
    await expectCleanExit('quit', 0);
  }, 30_000);

  it('Ctrl+D at an empty prompt', async () => {
    await start('eof');
    tmux('send-keys', '-t', 'eof', 'C-d');
    await expectCleanExit('eof', 0);
    // The handoff step's line does not glue onto the prompt.
    expect(screen('eof')).not.toMatch(/you › *──/);
  }, 30_000);

  it('SIGTERM', async () => {
    await start('term');
    // The pane's shell runs the CLI as its child: that process (ours) is sent the signal.
    const shell = tmux('display-message', '-p', '-t', 'term', '#{pane_pid}').trim();
    const cli = execFileSync('ps', ['-o', 'pid=', '--ppid', shell], { encoding: 'utf8' }).trim().split(/\s+/)[0];
    expect(cli).toMatch(/^\d+$/);
    process.kill(Number(cli), 'SIGTERM');
    await expectCleanExit('term', 143);
  }, 30_000);

  it('Ctrl+C twice', async () => {
    await start('intr');
    tmux('send-keys', '-t', 'intr', 'C-c');
    await until('intr', 'the exit hint', (text) => /press Ctrl\+C again/.test(text));
    tmux('send-keys', '-t', 'intr', 'C-c');
    await expectCleanExit('intr', 130);
  }, 30_000);
});
