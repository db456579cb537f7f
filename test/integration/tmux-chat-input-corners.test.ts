// Input corners of chat in a real terminal (issue 29): the built CLI in tmux (a private server on its own socket)
// against a fake OpenAI server. A multi-line message started while a reply streams shows whole below the stream;
// bracketed paste (tmux pastes with ESC[200~ … ESC[201~ once the CLI asks for it): a paste without a final newline
// stays one draft until Enter, one with it is one message; Ctrl+R, Esc and a key at once gives the line back with
// the key typed; after exit the shell's pastes are no longer bracketed. Skipped without tmux, except under CI.
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { cliPath, tempHomes } from '../fakes/cli-process.js';

const hasTmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
if (!hasTmux && process.env.CI)
  throw new Error('tmux is required under CI (.ci/run installs it: apt-get install tmux)');
if (!hasTmux) console.warn('tmux-chat-input-corners: tmux not found, skipped (apt-get install tmux to run it)');

const socket = `skipper-corners-${process.pid}`;
const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const screen = (): string => tmux('capture-pane', '-p', '-J', '-t', 'corners').replace(/\s+$/, '');
const keys = (...names: string[]): void => void tmux('send-keys', '-t', 'corners', ...names);
const text = (typed: string): void => void tmux('send-keys', '-t', 'corners', '-l', typed);
/** A bracketed paste when the program asked for one (paste-buffer -p), plain otherwise. */
const paste = (pasted: string): void => {
  tmux('set-buffer', '-b', 'corner', pasted);
  tmux('paste-buffer', '-p', '-b', 'corner', '-t', 'corners');
};

async function until(what: string, test: (text: string) => boolean): Promise<string> {
  const started = Date.now();
  for (;;) {
    const shown = screen();
    if (test(shown)) return shown;
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}; the screen:\n${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SLOW = 'A slow reply, streamed word by word while you type a message of two lines below it. The end.';

describe.skipIf(!hasTmux)('chat input corners in tmux', () => {
  const homes = tempHomes();
  let fake: FakeOpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAI({
      script: [
        { content: SLOW, chunkSize: 3, chunkDelayMs: 60 },
        { content: 'Got both lines.' },
        { content: 'Pasted draft read.' },
        { content: 'Pasted message read.' },
        { content: 'Typed after Esc.' },
        { content: 'Handoff: pasted and typed.' },
      ],
    });
    const command = ['env', `SKIPPER_HOME=${homes()}`, 'NO_COLOR=1', 'TERM=xterm-256color', process.execPath]
      .concat([cliPath, '--model', 'custom/test-model', '--base-url', fake.url, '--tick-ms', '0'])
      .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    // After the CLI, `cat -v` shows what a paste sends the shell: ^[[200~ if bracketed paste was left on.
    tmux('new-session', '-d', '-s', 'corners', '-x', '150', '-y', '50', `${command}; echo "[exited $?]"; cat -v`);
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await fake?.close();
  });

  /** The text of the last user message of each model request. */
  const said = (): unknown[] =>
    fake.chatRequests.map((request) => {
      const messages = request.body.messages as { role: string; content: unknown }[];
      return messages.filter((message) => message.role === 'user').at(-1)?.content;
    });

  it('shows a multi-line message started during a stream whole, and sends it as one', async () => {
    await until('the prompt', (shown) => /you ›\s*$/.test(shown));
    text('hello');
    keys('Enter');
    await until('the reply to stream', (shown) => shown.includes('captain › A slow reply'));
    text('first line \\');
    keys('Enter');
    text('second li');
    const during = await until('both lines below the stream', (shown) => /\n {3}… second li$/.test(shown));
    expect(during).not.toContain('The end.');
    const rows = during.split('\n');
    expect(rows.at(-2)).toBe('you › first line ');
    expect(rows.at(-3)).toMatch(/^captain › A slow reply/);
    text('ne');
    keys('Enter');
    await until('the answer', (shown) => shown.includes('captain › Got both lines.'));
    expect(said()[1]).toBe('first line \nsecond line');
  }, 30_000);

  it('keeps a bracketed paste without a final newline as one draft; Enter sends it whole', async () => {
    await until('the prompt', (shown) => /Got both lines\.\nyou ›\s*$/.test(shown));
    paste('pasted one\npasted two');
    await until('the pasted draft', (shown) => /you › pasted one\n {3}… pasted two$/.test(shown));
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing is sent meanwhile
    expect(fake.chatRequests).toHaveLength(2);
    text(' and more');
    keys('Enter');
    await until('the answer', (shown) => shown.includes('captain › Pasted draft read.'));
    expect(said()[2]).toBe('pasted one\npasted two and more');
  }, 30_000);

  it('sends a bracketed paste that ends with a newline as one message', async () => {
    paste('alpha\nbeta\ngamma\n');
    await until('the answer', (shown) => shown.includes('captain › Pasted message read.'));
    expect(said()[3]).toBe('alpha\nbeta\ngamma');
  }, 30_000);

  it('Ctrl+R, then Esc and a key at once: the search is cancelled and the key typed', async () => {
    await until('the prompt', (shown) => /Pasted message read\.\nyou ›\s*$/.test(shown));
    text('and then ');
    keys('C-r');
    text('alpha');
    await until('the history search', (shown) => /\(history search\)'alpha': .*alpha/.test(shown));
    keys('Escape');
    text('x');
    await until('the line given back with the key', (shown) => /\nyou › and then x$/.test(shown));
    keys('Enter');
    await until('the answer', (shown) => shown.includes('captain › Typed after Esc.'));
    expect(said()[4]).toBe('and then x');
  }, 30_000);

  it('leaves bracketed paste off for the shell after it', async () => {
    text('/quit');
    keys('Enter');
    await until('the CLI to exit', (shown) => /\[exited 0\]/.test(shown));
    paste('after exit\n');
    const end = await until('cat to echo the paste', (shown) =>
      /\[exited 0\][\s\S]*after exit\nafter exit$/.test(shown),
    );
    expect(end).not.toContain('200~');
    expect(fake.exhausted).toBe(false);
  }, 30_000);
});
