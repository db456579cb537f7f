// Servers that misbehave, for the game connection's failure tests: not MCP at all (404 / HTML), silent,
// closing the socket mid-call, or answering tools/call with something that is not JSON-RPC.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { closeLocalServer, listenLocally } from './local-server.js';

export type BadBehaviour =
  | 'not-found' // every request: 404 with an HTML page
  | 'html' // every request: 200 with an HTML page
  | 'silent' // accepts requests, never answers
  | 'close-mid-call' // a real MCP server, but tools/call for `boom` destroys the socket
  | 'invalid-json-rpc' // a real MCP server, but tools/call for `boom` answers {"hello":"world"}
  | 'garbage'; // a real MCP server, but tools/call for `boom` answers text that is not JSON

export interface BadServer {
  url: string;
  /** HTTP requests received so far (every attempt the client made). */
  requests(): number;
  close(): Promise<void>;
}

function mcpServer(): Server {
  const server = new Server({ name: 'bad', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: ['boom', 'get_status'].map((name) => ({ name, inputSchema: { type: 'object' as const, properties: {} } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'fine' }] }));
  return server;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

function isBoomCall(body: unknown): boolean {
  const message = body as { method?: string; params?: { name?: string } } | undefined;
  return message?.method === 'tools/call' && message.params?.name === 'boom';
}

/** The MCP session's transport (by its Mcp-Session-Id), or a new one connected to a fresh server for a new session. */
export async function sessionTransport(
  request: IncomingMessage,
  transports: Map<string, StreamableHTTPServerTransport>,
  mcpServer: () => Server,
): Promise<StreamableHTTPServerTransport> {
  const sessionId = request.headers['mcp-session-id'];
  const known = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (known) return known;
  const created = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (id) => {
      transports.set(id, created);
    },
  });
  await mcpServer().connect(created);
  return created;
}

export async function startBadServer(behaviour: BadBehaviour): Promise<BadServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const hanging = new Set<ServerResponse>();
  let requests = 0;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    requests += 1;
    if (behaviour === 'not-found') {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
      return;
    }
    if (behaviour === 'html') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to my blog</body></html>');
      return;
    }
    if (behaviour === 'silent') {
      hanging.add(response);
      return;
    }
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    if (isBoomCall(body)) {
      if (behaviour === 'close-mid-call') {
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(behaviour === 'garbage' ? 'this is {not json' : JSON.stringify({ hello: 'world' }));
      return;
    }
    const transport = await sessionTransport(request, transports, mcpServer);
    await transport.handleRequest(request, response, body);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  const port = await listenLocally(server);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests: () => requests,
    close: () => closeLocalServer(server, transports.values()),
  };
}

/** An old server that only speaks the deprecated HTTP+SSE transport: POST /mcp is 405, GET /mcp opens the stream. */
export async function startSseOnlyServer(): Promise<BadServer> {
  const transports = new Map<string, SSEServerTransport>();
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/mcp' && request.method === 'GET') {
      const transport = new SSEServerTransport('/messages', response);
      transports.set(transport.sessionId, transport);
      transport.onclose = () => transports.delete(transport.sessionId);
      mcpServer()
        .connect(transport)
        .catch(() => response.end());
      return;
    }
    if (url.pathname === '/messages' && request.method === 'POST') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        response.writeHead(404).end('unknown session');
        return;
      }
      transport.handlePostMessage(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
      return;
    }
    response.writeHead(405, { allow: 'GET' }).end('method not allowed');
  });
  const port = await listenLocally(server);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests: () => requests,
    close: () => closeLocalServer(server, transports.values()),
  };
}

/** A minimal MCP server over stdio, as a `node --input-type=module -e` script (run with cwd = the repo root). */
export const STDIO_SERVER_SCRIPT = `
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'stdio-game', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [
  { name: 'get_status', inputSchema: { type: 'object', properties: {} } },
  { name: 'crash', inputSchema: { type: 'object', properties: {} } },
] }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  if (request.params.name === 'crash') process.exit(3);
  return { content: [{ type: 'text', text: 'stdio ok: ' + request.params.name + ' pid ' + process.pid }] };
});
await server.connect(new StdioServerTransport());
`;
