// JSON-RPC edges over real HTTP: an object id is an Invalid Request (-32600, id null), a malformed tools/call is
// Invalid params (-32602), and an MCP error's message travels without the SDK's "MCP error <code>: " prefix, so a
// client shows it once.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMinimolt, type Minimolt } from '../../internal/sim/index.js';
import { openSession, rpc, sessionHeaders } from './sim-http-raw.js';

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
