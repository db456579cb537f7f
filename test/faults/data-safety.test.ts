// Fault groups of issue 30, each as a user meets it with the built CLI: a second Skipper on a session being played
// (refused, the first plays on), `--home B` before a destructive command (acts on B only), a key the model echoed
// exported from a shell without that key's variable (0 hits), and `skipper serve` sent requests whose ids the MCP SDK
// drops (1.5, 1e400): each answered, none keeps a session busy, so a 3-session server still takes a normal client.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { startFakeOpenAI, type FakeReply, type RecordedRequest } from '../fakes/fake-openai.js';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';
import { MCP_HEADERS, openSession, raw, sessionHeaders, type RawResponse } from '../integration/sim-http-raw.js';
import { exitWithin, stopChild } from './harness.js';

const homes: string[] = [];
const newHome = (): string => {
  const home = makeHome();
  homes.push(home);
  return home;
};
afterAll(() => homes.splice(0).forEach(removeHome));

async function finished(cli: CliRun, ms = 60_000): Promise<{ code: number | null; out: string }> {
  cli.child.stdin.end();
  const exit = await exitWithin(cli, ms);
  return { code: exit ? exit.code : null, out: cli.stdout() + cli.stderr() };
}

describe('faults: one writer per session', () => {
  it('a second Skipper on a session being played is refused, naming the first; the first plays on', async ({
    task,
  }) => {
    task.meta.faultGroup = 'two processes';
    const home = newHome();
    const first = runCli(['-s', 'twice', '--autoplay', '--max-ticks', '400', '--tick-ms', '50', '--json'], { home });
    try {
      await first.waitFor(/"type":"turn-end"/, { timeoutMs: 30_000 });
      const second = await finished(
        runCli(['-s', 'twice', '--autoplay', '--max-ticks', '5', '--tick-ms', '0'], { home }),
      );
      task.meta.faultLine = `two processes on one session: second exited ${second.code}`;
      expect(second.code).toBe(1);
      expect(second.out).toContain(`session twice is being played by another Skipper (pid ${first.child.pid} on host`);
      expect(second.out).not.toMatch(/\n\s+at /); // no stack trace
      expect(first.child.exitCode).toBeNull();
      const before = first.stdout().length;
      await first.waitFor(/"type":"turn-end"/, { timeoutMs: 30_000, after: before });
      first.kill('SIGINT');
      expect((await first.exited).code).toBe(130);
      task.meta.faultLine = 'two processes on one session: the second refused, the first played on';
    } finally {
      await stopChild(first);
    }
  }, 90_000);
});

/** A home holding finished sessions of these names. */
async function homeWith(...names: string[]): Promise<string> {
  const home = newHome();
  const store = await openStore({ path: join(home, 'skipper.db') });
  try {
    for (const name of names) {
      const session = await store.createSession({ name, game: 'embedded', model: 'builtin/autopilot' });
      await store.append(session.id, { role: 'user', content: 'mine some ore', turn: 1 });
    }
  } finally {
    await store.close();
  }
  return home;
}

async function sessionNames(home: string): Promise<string[]> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    return (await store.listSessions()).map((row) => row.session.name).sort();
  } finally {
    await store.close();
  }
}

describe('faults: --home before a command', () => {
  it('`skipper --home B sessions rm x --yes` deletes x from B, names B, and leaves $SKIPPER_HOME alone', async ({
    task,
  }) => {
    task.meta.faultGroup = '--home before a command';
    const a = await homeWith('x', 'only-a');
    const b = await homeWith('x', 'only-b');
    const removed = await finished(runCli(['--home', b, 'sessions', 'rm', 'x', '--yes'], { home: a }));
    expect(removed.code, removed.out).toBe(0);
    expect(removed.out).toBe(`deleted session x from ${join(b, 'skipper.db')}\n`);
    expect(await sessionNames(b)).toEqual(['only-b']);
    expect(await sessionNames(a)).toEqual(['only-a', 'x']);
    const listed = await finished(runCli(['--home', b, 'sessions', '--json'], { home: a }));
    expect(listed.out).toContain('only-b');
    expect(listed.out).not.toContain('only-a');
    task.meta.faultLine = '--home before a command: acted on that home only';
  }, 60_000);
});

const KEY = 'fault-custom-key-7c21e9b04d';

/** A model that says back the key it was sent, in its text and in a tool call's arguments. */
function echoKey(request: RecordedRequest): FakeReply {
  const sent = String(request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
  return {
    content: `the key you sent me is ${sent}`,
    toolCalls: [{ name: 'spacemolt', arguments: { action: 'get_status', note: sent } }],
  };
}

describe('faults: secrets in exports', () => {
  it('a key the model echoed is in no export or replay made in a shell without its variable (0 hits)', async ({
    task,
  }) => {
    task.meta.faultGroup = 'secrets in export';
    const home = newHome();
    const model = await startFakeOpenAI({ script: Array.from({ length: 12 }, () => echoKey) });
    try {
      // user:password@ in the base URL must not be stored either.
      const baseUrl = model.url.replace('http://', 'http://fault-user:fault-pass-93b1@');
      const played = await finished(
        runCli(
          ['--model', 'custom/echo', '--base-url', baseUrl, '--api-key-env', 'MY_FAULT_KEY', '-s', 'leak'].concat([
            '--autoplay',
            '--max-turns',
            '2',
            '--tick-ms',
            '0',
          ]),
          { home, env: { MY_FAULT_KEY: KEY } },
        ),
      );
      expect(played.code, played.out).toBe(0);
      expect(model.chatRequests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
      let hits = 0;
      const secrets = [KEY, 'fault-pass-93b1'];
      for (const args of [
        ['export', 'leak', '--format', 'md'],
        ['export', 'leak', '--format', 'jsonl'],
        ['replay', 'leak', '--instant'],
      ]) {
        const shown = await finished(runCli(args, { home }));
        expect(shown.code, shown.out).toBe(0);
        expect(shown.out).toContain('[redacted]');
        hits += secrets.filter((secret) => shown.out.includes(secret)).length;
      }
      const files = readdirSync(home, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      const bytes = files.map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1')).join('');
      hits += secrets.filter((secret) => bytes.includes(secret)).length;
      task.meta.faultLine = `secrets in export without the variable set: ${hits} hits`;
      expect(hits).toBe(0);
    } finally {
      await model.close();
    }
  }, 90_000);
});

function post(target: string, text: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(target, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: text });
}

const initialize = (id: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-06-18",` +
  `"capabilities":{},"clientInfo":{"name":"odd","version":"1"}}}`;

describe('faults: odd JSON-RPC ids', () => {
  it('skipper serve --max-sessions 3 answers ids 1.5 and 1e400 and still takes a normal client', async ({ task }) => {
    task.meta.faultGroup = 'odd JSON-RPC ids';
    const serve = runCli(['serve', '--port', '0', '--max-sessions', '3', '--tick-ms', '0'], { home: newHome() });
    try {
      const [, served] = await serve.waitFor(/serving MCP at (http:\S+\/mcp\/v2)/, { timeoutMs: 20_000 });
      const url = served!.replace(/\/v2$/, '');
      const own = await openSession(url);
      const odd = await Promise.all([
        post(url, initialize('1.5')),
        post(url, initialize('1e400')),
        post(url, initialize('1.5')),
        post(url, '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', sessionHeaders(own)),
        post(url, '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', sessionHeaders(own)),
      ]);
      let answered = 0;
      for (const response of odd) {
        const answer = response.json() as { error?: { code: number; message: string } };
        if (answer.error?.code === -32600 && !answer.error.message.includes('\n')) answered += 1;
      }
      task.meta.faultLine = `odd JSON-RPC ids: ${answered}/${odd.length} answered -32600`;
      expect(answered).toBe(odd.length);
      // Nothing was left busy: a normal client gets a session and an answer, and so does the first one.
      const fresh = await openSession(url);
      const listed = await post(url, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}', sessionHeaders(fresh));
      expect((listed.json() as { result?: { tools?: unknown[] } }).result?.tools?.length).toBeGreaterThan(0);
      const ping = await post(url, '{"jsonrpc":"2.0","id":3,"method":"ping"}', sessionHeaders(own));
      expect(ping.json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
      task.meta.faultLine += ', a normal client served after them';
    } finally {
      serve.kill('SIGTERM');
      await exitWithin(serve, 10_000);
    }
  }, 60_000);
});
