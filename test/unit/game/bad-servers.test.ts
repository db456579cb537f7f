// Servers that are not MCP or break mid-call: clear errors, no crash, no hang past the timeout.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectGame, type GameConnection, type GameTarget } from '../../../internal/game/index.js';
import { FatalError } from '../../../internal/shared/index.js';
import {
  startBadServer,
  startSseOnlyServer,
  STDIO_SERVER_SCRIPT,
  type BadBehaviour,
  type BadServer,
} from '../../fakes/bad-mcp-servers.js';
import { fakeClock } from './fake-clock.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function bad(behaviour: BadBehaviour): Promise<string> {
  return (await badServer(behaviour)).url;
}

async function badServer(behaviour: BadBehaviour): Promise<BadServer> {
  const server = await startBadServer(behaviour);
  cleanup.push(() => server.close());
  return server;
}

async function connect(
  target: GameTarget,
  queryMs = 1000,
  connectMs = 1000,
  clock = fakeClock(), // reconnect backoff is recorded, not slept; connect and call timeouts stay real
): Promise<GameConnection> {
  const game = await connectGame({
    target,
    credentials: memoryCredentials(),
    timeouts: { queryMs, connectMs },
    retry: { backoffMs: 10, reconnectAttempts: 2 },
    clock,
  });
  cleanup.push(() => game.close());
  return game;
}

// A server that is not an MCP server is a fatal error at once: no reconnect backoff, no second round of attempts.
// (How long the connect timeout waits is the timeout's own business; the test's timeout catches a hang.)
async function connectError(target: GameTarget): Promise<FatalError> {
  const clock = fakeClock();
  const error = await connect(target, 1000, 1000, clock).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(clock.waits).toEqual([]);
  expect(error).toBeInstanceOf(FatalError);
  return error as FatalError;
}

describe('not an MCP server', () => {
  it('a plain 404 page is a clear fatal error, after trying SSE', async () => {
    const server = await badServer('not-found');
    const error = await connectError({ kind: 'http', url: server.url });
    expect(server.requests()).toBe(2); // one POST (Streamable HTTP), one GET (the SSE fallback), no retries
    expect(error.message).toMatch(/did not answer as an MCP server: HTTP 404/);
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it('an HTML page is a clear fatal error', async () => {
    const server = await badServer('html');
    const error = await connectError({ kind: 'http', url: server.url });
    expect(server.requests()).toBe(1);
    expect(error.message).toMatch(/did not answer as an MCP server/);
  });

  it('a server that never answers fails at the connect timeout', async () => {
    const server = await badServer('silent');
    const error = await connectError({ kind: 'http', url: server.url });
    expect(server.requests()).toBe(1); // one attempt, given up at the connect timeout
    expect(error.message).toMatch(/did not answer as an MCP server: no MCP answer \(no answer within 1000 ms\)/);
  });

  it('nothing listening is a clear fatal error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await connectError({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` });
    expect(error.message).toMatch(/could not reach the game at .*server is running/);
  });

  it('a stdio command that is not an MCP server fails at the timeout', async () => {
    const error = await connectError({
      kind: 'stdio',
      command: process.execPath,
      args: ['-e', 'setTimeout(() => {}, 20000)'],
    });
    expect(error.message).toMatch(/did not answer as an MCP server over stdio/);
  });
});

describe('breaking mid-call', () => {
  it('a socket closed mid-call gives an error result and the connection still works', async () => {
    const game = await connect({ kind: 'http', url: await bad('close-mid-call') });
    const result = await game.call('boom', {});
    expect(result.isError).toBe(true);
    // the closed socket is seen as such, not waited out to the call timeout; an unknown tool counts as an action,
    // and an action cut off mid-call is not sent again: its outcome is uncertain
    expect(result.code).toBe('uncertain');
    expect((await game.call('get_status', {})).text).toBe('fine');
  });

  it.each(['invalid-json-rpc', 'garbage'] as const)(
    'an answer that is not JSON-RPC (%s) gives bad_response',
    async (behaviour) => {
      const game = await connect({ kind: 'http', url: await bad(behaviour) });
      const result = await game.call('boom', {});
      expect(result).toMatchObject({ isError: true, code: 'bad_response' });
      expect(result.text).toMatch(/^bad_response: the game's answer to boom could not be read/);
      expect((await game.call('get_status', {})).text).toBe('fine');
    },
  );
});

describe('old servers', () => {
  it('falls back to the SSE transport when Streamable HTTP is refused with 405', async () => {
    const server = await startSseOnlyServer();
    cleanup.push(() => server.close());
    const game = await connect({ kind: 'http', url: server.url });
    expect((await game.listTools()).map((tool) => tool.name)).toEqual(['boom', 'get_status']);
    expect((await game.call('get_status', {})).text).toBe('fine');
  });
});

// Starting a Node child takes well over a second on a busy machine: the stdio tests give the connect time to spare (they
// test playing a child and replacing a dead one, not how fast a child starts).
const STDIO_CONNECT_MS = 15_000;

describe('stdio', () => {
  it('plays an MCP server run as a child process', async () => {
    const game = await connect(
      { kind: 'stdio', command: process.execPath, args: ['--input-type=module', '-e', STDIO_SERVER_SCRIPT] },
      5000,
      STDIO_CONNECT_MS,
    );
    expect((await game.listTools()).map((tool) => [tool.name, tool.readOnly])).toEqual([
      ['get_status', true],
      ['crash', false],
    ]);
    expect((await game.call('get_status', {})).text).toMatch(/^stdio ok: get_status pid \d+$/);
  });

  it('a child that dies mid-call: clear error result, and the next call runs in a new child', async () => {
    const game = await connect(
      { kind: 'stdio', command: process.execPath, args: ['--input-type=module', '-e', STDIO_SERVER_SCRIPT] },
      5000,
      STDIO_CONNECT_MS,
    );
    const before = (await game.call('get_status', {})).text;
    const crashed = await game.call('crash', {});
    // An unknown tool counts as an action: cut off by the child's death, it is not sent again (its outcome is open).
    expect(crashed).toMatchObject({ isError: true, code: 'uncertain' });
    const after = await game.call('get_status', {});
    expect(after.isError).toBe(false);
    expect(after.text).toMatch(/stdio ok: get_status pid \d+$/);
    expect(after.text.split(' pid ')[1]).not.toBe(before.split(' pid ')[1]);
  });
});
