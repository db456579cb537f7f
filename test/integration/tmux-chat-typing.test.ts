// Chat in a real terminal: the built CLI runs inside tmux (a private server, its own socket), a fake OpenAI server
// streams a reply slowly, and keys are typed while it streams. The screen (tmux capture-pane) must show the reply
// whole, the typed line once, below the stream, sent as typed; the stored transcript (export jsonl) must agree.
// tmux is a Debian package: .ci/run installs it; without it (a developer machine) this file says so and skips,
// except under CI, where a missing tmux fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { cliPath, tempHomes } from '../fakes/cli-process.js';

const hasTmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
if (!hasTmux && process.env.CI)
  throw new Error('tmux is required under CI (.ci/run installs it: apt-get install tmux)');
if (!hasTmux) console.warn('tmux-chat-typing: tmux not found, skipped (apt-get install tmux to run it)');

const socket = `skipper-test-${process.pid}`;
const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
/** The screen with wrapped lines joined, trailing blank lines dropped. */
const screen = (): string => tmux('capture-pane', '-p', '-J', '-t', 'chat').replace(/\s+$/, '');

async function until(what: string, test: (text: string) => boolean, timeoutMs = 20_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const text = screen();
    if (test(text)) return text;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}; the screen:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const FIRST =
  'This is a long reply that streams slowly, word by word, so that you can type while it arrives and nothing typed lands inside it. The end.';
const SECOND = 'Aye, mining next as ordered.';

describe.skipIf(!hasTmux)('chat in tmux: typing while a reply streams', () => {
  const homes = tempHomes();
  let fake: FakeOpenAI;
  let home: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI({
      script: [
        { content: FIRST, chunkSize: 3, chunkDelayMs: 60 },
        { content: SECOND, chunkSize: 3, chunkDelayMs: 10 },
        { content: 'Searched and found.' },
        { content: 'Two lines, one message.' },
        { content: 'Pasted and read.' },
        { content: 'Handoff: chatted, nothing flown yet.' }, // Skipper's own handoff step at /quit
      ],
    });
    home = homes();
    const command = [
      'env',
      `SKIPPER_HOME=${home}`,
      'NO_COLOR=1',
      'TERM=xterm-256color',
      process.execPath,
      cliPath,
      '--model',
      'custom/test-model',
      '--base-url',
      fake.url,
      '--tick-ms',
      '0',
    ]
      .map((part) => `'${part.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    tmux('new-session', '-d', '-s', 'chat', '-x', '120', '-y', '40', `${command}; echo "[exited $?]"; sleep 30`);
  });

  afterAll(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await fake?.close();
  });

  it('keeps typed keys out of the stream, shows the line once below it, and sends it as typed', async () => {
    await until('the prompt', (text) => /^you ›\s*$/m.test(text));
    tmux('send-keys', '-t', 'chat', '-l', 'hello there');
    tmux('send-keys', '-t', 'chat', 'Enter');
    // Type while the first reply is still streaming.
    await until('the reply to start streaming', (text) => text.includes('captain › This is a long'));
    expect(screen()).not.toContain('The end.');
    tmux('send-keys', '-t', 'chat', '-l', 'and then mine');
    tmux('send-keys', '-t', 'chat', 'Enter');
    tmux('send-keys', '-t', 'chat', '-l', 'half a thought');
    // While the reply still streams, what is being typed shows on the row below it, not in it.
    const during = await until('the queued line and the draft below the streaming reply', (text) =>
      /\n {2}⧗ queued[^\n]*\nyou › half a thought$/.test(text),
    );
    expect(during).not.toContain('The end.');
    // The queued line is acknowledged at once, between the stream and the draft (issue 29), not when the turn ends.
    expect(during.split('\n').at(-2)).toBe('  ⧗ queued, sent when this turn ends: and then mine');
    expect(during.split('\n').at(-3)).toMatch(/^captain › This is a long/);
    const done = await until('the queued line to be answered', (text) => text.includes(`captain › ${SECOND}`));

    const lines = done.split('\n');
    // The streamed reply is whole: one line (wrapped lines are joined), exactly the model's text.
    expect(lines).toContain(`captain › ${FIRST}`);
    // The typed line appears as sent, once, after the reply it was typed during; never inside a reply.
    const sent = lines.filter((line) => line.includes('and then mine'));
    expect(sent.filter((line) => line === 'you › and then mine')).toHaveLength(1);
    for (const line of lines.filter((line) => line.startsWith('captain › ')))
      expect(line).not.toMatch(/and then|half a/);
    const firstReply = lines.indexOf(`captain › ${FIRST}`);
    const queuedEcho = lines.indexOf('you › and then mine');
    expect(queuedEcho).toBeGreaterThan(firstReply);
    expect(
      lines.findIndex((line) => line.includes('⧗ queued, sent when this turn ends: and then mine')),
    ).toBeGreaterThan(firstReply);
    // What was typed after Enter waits at the prompt, as typed.
    const ready = await until('the prompt with the half-typed line', (text) => /you › half a thought$/.test(text));
    expect(ready.split('\n').filter((line) => line.includes('half a thought'))).toEqual(['you › half a thought']);

    // Ctrl+R finds the first line; Enter sends it.
    tmux('send-keys', '-t', 'chat', 'C-u');
    tmux('send-keys', '-t', 'chat', 'C-r');
    tmux('send-keys', '-t', 'chat', '-l', 'hel');
    await until('the history search', (text) => text.endsWith("(history search)'hel': hello there"));
    tmux('send-keys', '-t', 'chat', 'Enter');
    await until('the searched line to be answered', (text) => text.includes('captain › Searched and found.'));

    // A trailing \ goes on at the … prompt; the two lines are one message.
    tmux('send-keys', '-t', 'chat', '-l', 'first part \\');
    tmux('send-keys', '-t', 'chat', 'Enter');
    await until('the continuation prompt', (text) => /\n {3}…\s*$/.test(text));
    tmux('send-keys', '-t', 'chat', '-l', 'second part');
    tmux('send-keys', '-t', 'chat', 'Enter');
    await until('the two lines to be answered', (text) => text.includes('captain › Two lines, one message.'));

    // A paste of several lines is one message too.
    tmux('set-buffer', '-b', 'paste', 'pasted one\npasted two\n');
    tmux('paste-buffer', '-b', 'paste', '-t', 'chat');
    await until('the paste to be answered', (text) => text.includes('captain › Pasted and read.'));

    // Ctrl+C drops a half-written multi-line message, as a shell does: nothing is sent.
    tmux('send-keys', '-t', 'chat', '-l', 'never mind \\');
    tmux('send-keys', '-t', 'chat', 'Enter');
    await until('the continuation prompt again', (text) => /\n {3}…\s*$/.test(text));
    tmux('send-keys', '-t', 'chat', 'C-c');
    await until('the main prompt back', (text) => /\^C\nyou ›\s*$/.test(text));

    tmux('send-keys', '-t', 'chat', '-l', '/quit');
    tmux('send-keys', '-t', 'chat', 'Enter');
    const end = await until('the CLI to exit', (text) => /\[exited \d+\]/.test(text));
    expect(end).toContain('[exited 0]');

    // The model got exactly what was typed, as separate messages.
    const userTexts = fake.chatRequests.map((request) => {
      const messages = request.body.messages as { role: string; content: unknown }[];
      return messages.filter((message) => message.role === 'user').at(-1)?.content;
    });
    expect(userTexts.slice(0, 5)).toEqual([
      'hello there',
      'and then mine',
      'hello there',
      'first part \nsecond part',
      'pasted one\npasted two',
    ]);
    expect(userTexts).toHaveLength(6);
    expect(String(userTexts[5])).toMatch(/handoff/);
    expect(fake.exhausted).toBe(false);

    // The stored transcript agrees.
    const sessions = execFileSync(process.execPath, [cliPath, 'sessions', '--json', '--home', home], {
      encoding: 'utf8',
    });
    const name = (JSON.parse(sessions.trim().split('\n')[0] ?? '{}') as { name: string }).name;
    const exported = execFileSync(process.execPath, [cliPath, 'export', name, '--format', 'jsonl', '--home', home], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { role?: string; content?: string });
    const said = exported
      .filter((row) => row.role === 'user' || row.role === 'assistant')
      .map((row) => `${row.role}: ${row.content}`);
    expect(said.slice(0, 6)).toEqual([
      'user: hello there',
      `assistant: ${FIRST}`,
      'user: and then mine',
      `assistant: ${SECOND}`,
      'user: hello there',
      'assistant: Searched and found.',
    ]);
  }, 60_000);
});
