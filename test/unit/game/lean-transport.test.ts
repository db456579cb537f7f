// The game transport's short path: a game call answered with 200 JSON goes straight to the client; every other
// answer (an event stream, an error status, a new session id, a malformed body) is read by the SDK's transport as
// before — and whatever the answer, the call is POSTed once (a mutation sent twice would act twice).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, it } from 'vitest';
import { leanFetch, leanPost } from '../../../internal/game/lean-fetch.js';
import { LeanStreamableTransport, type LeanPost } from '../../../internal/game/lean-transport.js';

interface Post {
  method: string;
  tool?: string;
  session?: string;
  version?: string;
}

let server: Server | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server?.closeAllConnections();
  server = undefined;
});

const result = (id: unknown, text: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

/** A small MCP server over Streamable HTTP; tools/call answers by the tool's name. */
async function serve(posts: Post[]): Promise<URL> {
  const answer = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const message = JSON.parse(body) as { id?: unknown; method: string; params?: Record<string, unknown> };
    const tool = message.method === 'tools/call' ? (message.params?.name as string) : undefined;
    posts.push({
      method: message.method,
      ...(tool ? { tool } : {}),
      ...(typeof req.headers['mcp-session-id'] === 'string' ? { session: req.headers['mcp-session-id'] } : {}),
      ...(typeof req.headers['mcp-protocol-version'] === 'string'
        ? { version: req.headers['mcp-protocol-version'] }
        : {}),
    });
    const json = { 'content-type': 'application/json' };
    if (message.id === undefined) {
      res.writeHead(202).end();
    } else if (message.method === 'initialize') {
      res.writeHead(200, { ...json, 'mcp-session-id': 'sess-1' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'fake', version: '1' },
          },
        }),
      );
    } else if (tool === 'sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`event: message\ndata: ${result(message.id, 'streamed')}\n\n`);
    } else if (tool === 'missing') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such session');
    } else if (tool === 'busy') {
      res.writeHead(429, { ...json, 'retry-after': '7' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'slow down' } }));
    } else if (tool === 'rotate') {
      res.writeHead(200, { ...json, 'mcp-session-id': 'sess-2' }).end(result(message.id, 'rotated'));
    } else if (tool === 'garbled') {
      res.writeHead(200, json).end('{"jsonrpc": "2.0", "id":');
    } else {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(result(message.id, `did ${tool}`));
    }
  };
  server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return new URL(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp`);
}

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  clients.push(client);
  await client.connect(transport);
  return client;
}

const textOf = (answer: unknown): string | undefined =>
  (answer as { content: Array<{ text: string }> }).content[0]?.text;

/** leanPost, noting the status of every answer it reads. */
function recordingPost(): { post: LeanPost; statuses: number[] } {
  const statuses: number[] = [];
  const post: LeanPost = async (to, init) => {
    const answer = await leanPost(to, init);
    statuses.push(answer.status);
    return answer;
  };
  return { post, statuses };
}

describe('LeanStreamableTransport', () => {
  it('a 200 JSON answer takes the short path: one POST, with the session and protocol version', async () => {
    const posts: Post[] = [];
    const url = await serve(posts);
    const { post, statuses } = recordingPost();
    const client = await connect(new LeanStreamableTransport(url, { fetch: leanFetch, post }));
    posts.length = 0;
    expect(textOf(await client.callTool({ name: 'mine', arguments: {} }))).toBe('did mine');
    expect(posts).toEqual([{ method: 'tools/call', tool: 'mine', session: 'sess-1', version: expect.any(String) }]);
    expect(statuses).toEqual([200]);
  });

  it('answers the short path leaves to the SDK read as the SDK transport reads them, each call POSTed once', async () => {
    const posts: Post[] = [];
    const url = await serve(posts);
    const { post, statuses } = recordingPost();
    const lean = new LeanStreamableTransport(url, { fetch: leanFetch, post });
    const plain = new StreamableHTTPClientTransport(url, { fetch: leanFetch });
    const outcomes = async (client: Client): Promise<unknown[]> => {
      const out: unknown[] = [];
      for (const name of ['sse', 'missing', 'busy', 'garbled', 'mine']) {
        out.push(
          await client.callTool({ name, arguments: {} }).then(
            (answer) => textOf(answer),
            (error: Error & { code?: unknown }) => `${error.constructor.name} ${String(error.code)}`,
          ),
        );
      }
      return out;
    };
    const leanClient = await connect(lean);
    posts.length = 0;
    const leanOutcomes = await outcomes(leanClient);
    expect(posts.map((one) => one.tool)).toEqual(['sse', 'missing', 'busy', 'garbled', 'mine']);
    expect(statuses).toEqual([200, 404, 429, 200, 200]);
    expect(leanOutcomes).toEqual([
      'streamed',
      'StreamableHTTPError 404',
      'StreamableHTTPError 429',
      'SyntaxError undefined',
      'did mine',
    ]);
    const plainClient = await connect(plain);
    posts.length = 0;
    expect(await outcomes(plainClient)).toEqual(leanOutcomes);
    expect(posts.map((one) => one.tool)).toEqual(['sse', 'missing', 'busy', 'garbled', 'mine']);
  });

  it('a new session id in a JSON answer is taken, and the next call carries it', async () => {
    const posts: Post[] = [];
    const url = await serve(posts);
    const transport = new LeanStreamableTransport(url, { fetch: leanFetch, post: leanPost });
    const client = await connect(transport);
    posts.length = 0;
    expect(textOf(await client.callTool({ name: 'rotate', arguments: {} }))).toBe('rotated');
    expect(transport.sessionId).toBe('sess-2');
    await client.callTool({ name: 'mine', arguments: {} });
    expect(posts.map((one) => [one.tool, one.session])).toEqual([
      ['rotate', 'sess-1'],
      ['mine', 'sess-2'],
    ]);
  });

  it('close() aborts a call in flight on the short path', async () => {
    const posts: Post[] = [];
    const url = await serve(posts);
    let started: () => void = () => undefined;
    const inFlight = new Promise<void>((done) => (started = done));
    const post: LeanPost = (to, init) => {
      started();
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    };
    const transport = new LeanStreamableTransport(url, { fetch: leanFetch, post });
    const client = await connect(transport);
    const call = client.callTool({ name: 'mine', arguments: {} });
    await inFlight;
    await transport.close();
    await expect(call).rejects.toThrow();
  });
});
