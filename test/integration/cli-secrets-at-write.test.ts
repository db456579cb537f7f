// Rule 14 at write (issue 30): a run redacts what it knows before anything is stored, so exports and replays are
// clean whatever the environment they run in; credentials in a URL are never stored at all.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply, type RecordedRequest } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const key = 'my-custom-key-5f3a9c1e7d';

/** A model that says back the key it was sent, in its text and in a tool call's arguments. */
function echoKey(request: RecordedRequest): FakeReply {
  const sent = String(request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  return {
    content: `the key you sent me is ${sent}`,
    toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status', note: sent } }],
  };
}

/** A fake model and a home of the test's own, removed when it finishes: the two tests run side by side. */
async function setUp(onTestFinished: TestContext['onTestFinished']): Promise<{ home: string; server: FakeOpenAI }> {
  const server = await startFakeOpenAI({ script: Array.from({ length: 12 }, () => echoKey) });
  onTestFinished(() => server.close());
  const home = makeHome();
  onTestFinished(() => removeHome(home));
  return { home, server };
}

async function run(
  home: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  const cli = runCli(args, { home, env });
  cli.child.stdin.end();
  const { code } = await cli.exited;
  return { code, out: cli.stdout() + cli.stderr() };
}

/** Every byte Skipper wrote in the home: the store (with its WAL) and the log. */
function homeBytes(home: string): string {
  const files = readdirSync(home, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return files.map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1')).join('\n');
}

const play = (baseUrl: string): string[] => [
  '--model',
  'custom/echo',
  '--base-url',
  baseUrl,
  '--session',
  'leak',
  '--autoplay',
  '--max-turns',
  '2',
  '--tick-ms',
  '0',
];

describe.concurrent('secrets redacted when written', () => {
  it('a key from --api-key-env that the model echoed is in no export or replay made without that variable', async ({
    onTestFinished,
  }) => {
    const { home, server } = await setUp(onTestFinished);
    const played = await run(home, [...play(server.url), '--api-key-env', 'MY_KEY'], { MY_KEY: key });
    expect(played.code, played.out).toBe(0);
    expect(server.chatRequests.length).toBeGreaterThan(0);
    expect(server.chatRequests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(homeBytes(home)).not.toContain(key);
    for (const args of [
      ['export', 'leak', '--format', 'md'],
      ['export', 'leak', '--format', 'jsonl'],
      ['replay', 'leak', '--instant'],
    ]) {
      const shown = await run(home, args);
      expect(shown.code, shown.out).toBe(0);
      expect(shown.out, args.join(' ')).toContain('[redacted]');
      expect(shown.out, args.join(' ')).not.toContain(key);
    }
  });

  it('user:password@ in --base-url is stored nowhere: not the session row, the transcript, the log or an export', async ({
    onTestFinished,
  }) => {
    const { home, server } = await setUp(onTestFinished);
    const url = server.url.replace('http://', 'http://user:secretpw@');
    const played = await run(home, play(url));
    expect(played.code, played.out).toBe(0);
    // The credentials are still used to connect: they leave the URL and go as Basic auth (no API key here).
    const basic = Buffer.from('user:secretpw').toString('base64');
    expect(server.chatRequests[0]!.headers.authorization).toBe(`Basic ${basic}`);
    expect(played.out).not.toContain('secretpw');
    const bytes = homeBytes(home);
    expect(bytes).toContain('[redacted]'); // the model's echo of what it was sent was stored, redacted
    expect(bytes).not.toContain('secretpw');
    expect(bytes).not.toContain(basic);
    for (const args of [
      ['export', 'leak', '--format', 'md'],
      ['export', 'leak', '--format', 'jsonl'],
      ['sessions', '--json'],
    ]) {
      const shown = await run(home, args);
      expect(shown.out, args.join(' ')).not.toContain('secretpw');
      expect(shown.out, args.join(' ')).not.toContain(basic);
    }
  });
});
