// The model endpoint dies mid-chat, in a real terminal (issue 29, done-when #1): the built CLI runs in tmux (a
// private server on its own socket) against a real HTTP fake of the OpenAI API, which is closed after the first
// answer. The error is said with what to do and the prompt comes back; a second failure in a row offers
// `/model builtin/autopilot`; that model plays a turn; `/quit` leaves the shell a clean line (the screen is read with
// tmux capture-pane). Skipped without tmux, except under CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { cliPath, tempHomes } from '../fakes/cli-process.js';

const hasTmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
if (!hasTmux && process.env.CI)
  throw new Error('tmux is required under CI (.ci/run installs it: apt-get install tmux)');
if (!hasTmux) console.warn('tmux-chat-model-error: tmux not found, skipped (apt-get install tmux to run it)');

const socket = `skipper-model-error-${process.pid}`;
const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
let pane = 'dies';
const screen = (): string => tmux('capture-pane', '-p', '-J', '-t', pane).replace(/\s+$/, '');
const type = (text: string): void => {
  tmux('send-keys', '-t', pane, '-l', text);
  tmux('send-keys', '-t', pane, 'Enter');
};

/** Starts chat on the fake in its own tmux session (the pane the helpers above read and type into). */
function startChat(name: string, url: string, home: string): void {
  pane = name;
  const command = ['env', `SKIPPER_HOME=${home}`, 'NO_COLOR=1', 'TERM=xterm-256color', process.execPath]
    .concat([cliPath, '--model', 'custom/test-model', '--base-url', url, '--tick-ms', '0'])
    .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  tmux('new-session', '-d', '-s', name, '-x', '160', '-y', '50', `${command}; echo "[exited $?]"; sleep 30`);
}

async function until(what: string, test: (text: string) => boolean): Promise<string> {
  const started = Date.now();
  for (;;) {
    const text = screen();
    if (test(text)) return text;
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The screen from the last occurrence of `marker` on. */
const after = (text: string, marker: string): string => text.slice(text.lastIndexOf(marker));

describe.skipIf(!hasTmux)('the model endpoint dies mid-chat, in tmux', () => {
  const homes = tempHomes();
  let fake: FakeOpenAI | undefined;
  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await fake?.close();
  });

  it('says so, gives the prompt back, offers the autopilot on the second failure, plays on it, quits clean', async () => {
    fake = await startFakeOpenAI({ script: [{ content: 'Aye, captain. All quiet.' }] });
    startChat('dies', fake.url, homes());
    await until('the prompt', (text) => /you ›\s*$/.test(text));
    type('hello');
    await until('the answer', (text) => /All quiet\.[\s\S]*you ›\s*$/.test(text));

    await fake.close(); // the endpoint dies
    type('look around');
    const first = await until('the error and the prompt back', (text) =>
      /you › look around\n[\s\S]*this turn failed[^\n]*\nyou ›\s*$/.test(text),
    );
    const failed = after(first, 'you › look around');
    expect(failed).toMatch(/error: [^\n]*cannot reach [^\n]*—/);
    expect(failed).toContain('/retry sends your line again, /model NAME switches model');
    expect(failed).not.toContain('/model builtin/autopilot');

    type('are you there');
    const second = await until('the second failure and the prompt back', (text) =>
      /you › are you there\n[\s\S]*plays without a model\nyou ›\s*$/.test(text),
    );
    expect(after(second, 'you › are you there')).toContain('`/model builtin/autopilot` plays without a model');

    type('/model builtin/autopilot');
    await until('the switch', (text) => /model switched to builtin\/autopilot\nyou ›\s*$/.test(text));
    type('play a turn');
    const played = await until('a turn played by the autopilot', (text) =>
      /you › play a turn\n[\s\S]*captain › [\s\S]*you ›\s*$/.test(text),
    );
    const turn = after(played, 'you › play a turn');
    expect(turn).toContain('plays a turn now');
    expect(turn).toMatch(/✓ spacemolt action=/);

    type('/quit');
    const end = await until('the CLI to exit', (text) => /\[exited \d+\]/.test(text));
    const rows = end.split('\n');
    const last = rows.findIndex((row) => row.includes('[exited'));
    // The shell's line is a row of its own: no status line or prompt glued to it or left on the row above.
    expect(rows[last]).toBe('[exited 0]');
    expect(rows[last - 1] ?? '').not.toMatch(/^you ›\s*$/);
    expect(rows[last - 1] ?? '').not.toMatch(/\btok\b|\$\d/);
  }, 60_000);

  it('a reply cut off mid-stream: the failure goes on a row of its own and the prompt comes back', async () => {
    const cut = await startFakeOpenAI({
      script: [{ fault: 'cut-stream', afterChunks: 4, reply: { content: 'A reply that never ends because the' } }],
    });
    try {
      startChat('cut', cut.url, homes());
      await until('the prompt', (text) => /you ›\s*$/.test(text));
      type('hello');
      const shown = await until('the error and the prompt back', (text) =>
        /this turn failed[^\n]*\nyou ›\s*$/.test(text),
      );
      const rows = after(shown, 'you › hello').split('\n');
      // The cut reply's row is ended before the failure is said: each on a row of its own, then the prompt.
      expect(rows[1]).toMatch(/^captain › A reply/);
      expect(rows[1]).not.toMatch(/failed|⚠/);
      expect(rows[2]).toMatch(/^ {2}⚠ failed \(.*cut off mid-stream/);
      expect(rows[3]).toMatch(/^ {2}this turn failed \(stored as failed\)/);
      expect(rows.at(-1)).toMatch(/^you ›\s*$/);
      type('/quit');
      const end = await until('the CLI to exit', (text) => /\[exited \d+\]/.test(text));
      expect(end).toMatch(/\n\[exited 0\]/);
    } finally {
      await cut.close();
    }
  }, 60_000);
});
