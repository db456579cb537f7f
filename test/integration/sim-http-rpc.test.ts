// JSON-RPC edges over real HTTP: an object id is an Invalid Request (-32600, id null), a malformed tools/call is
// Invalid params (-32602), and an MCP error's message travels without the SDK's "MCP error <code>: " prefix, so a
// client shows it once. Every request with an id is answered, also those the SDK's schema drops (ids 1.5 and 1e400),
// and such requests never keep a session busy (issue 30).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerServeCommand } from '../../internal/cli/serve.js';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import { MCP_HEADERS, openSession, raw, rpc, sessionHeaders, type RawResponse } from './sim-http-raw.js';

let sim: Minimolt;
let url = '';
let v2Url = '';
let session = '';

beforeAll(async () => {
  sim = await createMinimolt({ tickMs: 0, npcChatChance: 0, registrationCode: 'rpc' });
  ({ url, v2Url } = await sim.listen({ port: 0 }));
  session = await openSession(url);
});
afterAll(async () => sim.close());

describe('JSON-RPC request checks', () => {
  test('a request whose id is an object is answered -32600 Invalid Request with id null', async () => {
    const response = await rpc(url, { jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }, sessionHeaders(session));
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const array = await rpc(url, { jsonrpc: '2.0', id: [1], method: 'tools/list' }, sessionHeaders(session));
    expect(array.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  test.each([
    ['params not an object', 'oops'],
    ['missing name', { arguments: {} }],
    ['name not a string', { name: 5 }],
  ])('tools/call with %s is -32602 Invalid params', async (_what, params) => {
    const response = await rpc(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params }, sessionHeaders(session));
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ id: 3, error: { code: -32602 } });
    expect(response.json().error.message).not.toMatch(/^MCP error/);
  });

  test('the session still works after bad requests', async () => {
    const response = await rpc(
      url,
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'help', arguments: {} } },
      sessionHeaders(session),
    );
    expect(response.json().result.content[0].text).toMatch(/minimolt/);
  });
});

/** A POST of this exact text (ids like 1e400 cannot be written with JSON.stringify). */
function post(target: string, text: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(target, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: text });
}

describe('every request with an id is answered', () => {
  const longId = 'x'.repeat(50_000);
  test.each([
    ['1.5', 1.5, -32600],
    ['1e400', null, -32600],
    ['123456789012345678901234567890', null, -32600],
  ])('id %s: Invalid Request (-32600), the id echoed when it can be', async (id, echoed, code) => {
    const response = await post(url, `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`, sessionHeaders(session));
    expect(response.status).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: echoed, error: { code } });
    expect(answer.error.message).toMatch(/^invalid request: .*(whole number|cannot be answered)/);
    expect(answer.error.message).not.toContain('\n');
  });

  test('ids -0 and a 50 000-character string get their result', async () => {
    const zero = await post(url, '{"jsonrpc":"2.0","id":-0,"method":"ping"}', sessionHeaders(session));
    expect(zero.json()).toEqual({ jsonrpc: '2.0', id: 0, result: {} });
    const long = await rpc(url, { jsonrpc: '2.0', id: longId, method: 'ping' }, sessionHeaders(session));
    expect(long.json()).toEqual({ jsonrpc: '2.0', id: longId, result: {} });
  });

  test('tools/call without params: -32602 "params: required (name and arguments)", not an internal error', async () => {
    const response = await rpc(url, { jsonrpc: '2.0', id: 6, method: 'tools/call' }, sessionHeaders(session));
    expect(response.json()).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: { code: -32602, message: 'params: required (name and arguments)' },
    });
  });

  test.each([
    ['an unknown member', { jsonrpc: '2.0', id: 7, method: 'tools/list', extra: 1 }, -32600],
    ['a _meta that is not an object', { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: 5 } }, -32602],
  ])('a request with %s is answered with a one-line error', async (_what, body, code) => {
    const response = await rpc(url, body, sessionHeaders(session));
    expect(response.json()).toMatchObject({ id: 7, error: { code } });
    expect(response.json().error.message).not.toContain('\n');
  });

  test('in a batch the odd request is answered beside the good one', async () => {
    const response = await post(
      url,
      '[{"jsonrpc":"2.0","id":1.5,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"}]',
      sessionHeaders(session),
    );
    const answers = response.json() as Array<{ id: unknown; error?: { code: number } }>;
    expect(answers).toHaveLength(2);
    expect(answers).toContainEqual(
      expect.objectContaining({ id: 1.5, error: expect.objectContaining({ code: -32600 }) }),
    );
    expect(answers).toContainEqual({ jsonrpc: '2.0', id: 8, result: {} });
  });

  test('a body that is not JSON is a parse error (-32700)', async () => {
    const response = await post(url, '{"jsonrpc":', sessionHeaders(session));
    expect(response.json()).toMatchObject({ id: null, error: { code: -32700 } });
  });
});

describe('skipper serve --max-sessions 3', () => {
  test('three odd requests (two initializes, one in a session) leave room for a normal client', async () => {
    let answers: unknown[] = [];
    let listed = 0;
    const root = new Command('skipper').exitOverride();
    registerServeCommand(root, {
      stdout: { write: () => true },
      stopSignal: async ({ url: served }) => {
        const initialize = (id: string): Promise<RawResponse> =>
          post(
            served,
            `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"odd","version":"1"}}}`,
          );
        const own = await openSession(served);
        answers = (
          await Promise.all([
            initialize('1.5'),
            initialize('1e400'),
            post(served, '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', sessionHeaders(own)),
          ])
        ).map((response) => response.json());
        const client = new Client({ name: 'normal', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(served)));
        listed = (await client.listTools()).tools.length;
        await client.close();
        return 'SIGTERM';
      },
    });
    await root.parseAsync(['node', 'skipper', 'serve', '--port', '0', '--tick-ms', '0', '--max-sessions', '3']);
    expect(answers).toEqual([
      expect.objectContaining({ id: 1.5, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: 1.5, error: expect.objectContaining({ code: -32600 }) }),
    ]);
    expect(listed).toBeGreaterThan(0);
  });
});

describe('MCP error messages', () => {
  test('on the wire an unknown tool error is the plain message', async () => {
    const response = await rpc(
      url,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'teleport', arguments: {} } },
      sessionHeaders(session),
    );
    expect(response.json().error).toEqual({ code: -32602, message: expect.stringMatching(/^unknown tool/) });
  });

  test.each(['v1', 'v2'])('the SDK client (%s) sees "MCP error -32602:" once', async (face) => {
    const client = new Client({ name: 'rpc-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(face === 'v1' ? url : v2Url)));
    try {
      const error = await client.callTool({ name: 'teleport', arguments: {} }).catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^MCP error -32602: unknown tool/);
      expect((error as Error).message.match(/MCP error/g)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  test('the in-memory transport sends the plain message too', async () => {
    const client = new Client({ name: 'rpc-mem', version: '1' });
    await client.connect(await sim.connect({ face: 'v1' }));
    try {
      const error = await client.callTool({ name: 'teleport', arguments: {} }).catch((e: unknown) => e as Error);
      expect((error as Error).message.match(/MCP error/g)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
