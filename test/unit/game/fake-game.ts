// A tiny game for the game-connection unit tests: accounts shared across MCP sessions, one live session per
// player (a newer login displaces the older), rate-limit and HTTP 429 knobs, chat that records what was said.
// Served in-process (InMemoryTransport) or over real HTTP (Streamable HTTP, restartable on the same port).
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface FakeWorld {
  accounts: Map<string, string>;
  /** username -> id of the session that holds the login. */
  live: Map<string, string>;
  said: string[];
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  logins: number;
  notifications: Array<{ id: number; type: string; tick: number; from?: string; message: string }>;
  rateLimitNext: number;
  retryAfter: number;
  http429Next: number;
  /** When false, results carry no structuredContent and tools no annotations (SpaceMolt-like). */
  structured: boolean;
  /** Calls to this tool never answer (for timeouts). */
  hangTool?: string;
  /** The next N tool calls answer with JSON-RPC error -32001 "Session expired" (SpaceMolt after a restart). */
  expireNext: number;
  /** Bumping it logs every session out (their next call reads not_authenticated). */
  loginEpoch: number;
}

export function createWorld(overrides: Partial<FakeWorld> = {}): FakeWorld {
  return {
    accounts: new Map(),
    live: new Map(),
    said: [],
    calls: [],
    logins: 0,
    notifications: [],
    rateLimitNext: 0,
    retryAfter: 1,
    http429Next: 0,
    structured: true,
    expireNext: 0,
    loginEpoch: 0,
    ...overrides,
  };
}

const TOOLS = [
  { name: 'register', readOnly: false, properties: { username: { type: 'string' }, empire: { type: 'string' } } },
  { name: 'login', readOnly: false, properties: { username: { type: 'string' }, password: { type: 'string' } } },
  { name: 'get_status', readOnly: true, properties: {} },
  { name: 'chat', readOnly: false, properties: { channel: { type: 'string' }, content: { type: 'string' } } },
  { name: 'mine', readOnly: false, properties: {} },
  { name: 'logout', readOnly: false, properties: {} },
  { name: 'sell', readOnly: false, properties: { item_id: { type: 'string' }, quantity: { type: 'number' } } },
  { name: 'get_notifications', readOnly: true, properties: { limit: { type: 'number' }, clear: { type: 'boolean' } } },
  // SpaceMolt /mcp/v2 style: one grouped tool, the operation in `action`.
  { name: 'spacemolt', readOnly: false, properties: { action: { type: 'string' }, username: { type: 'string' }, password: { type: 'string' }, content: { type: 'string' } } },
];

function ok(world: FakeWorld, text: string, data: Record<string, unknown>): CallToolResult {
  return world.structured ? { content: [{ type: 'text', text }], structuredContent: data } : { content: [{ type: 'text', text }] };
}

function fail(world: FakeWorld, code: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: `${code}: ${message}` }], isError: true };
  if (world.structured) result.structuredContent = { error: { code, message, ...extra } };
  return result;
}

/** One MCP server per session, sharing the world. */
export function createGameServer(world: FakeWorld): Server {
  const sessionId = randomUUID();
  let user: string | undefined;
  let epoch = world.loginEpoch;
  const server = new Server({ name: 'fake-game', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      description: `${tool.name} tool`,
      inputSchema: { type: 'object' as const, properties: tool.properties },
      ...(world.structured ? { annotations: { readOnlyHint: tool.readOnly } } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    world.calls.push({ tool: request.params.name, args });
    const name = request.params.name === 'spacemolt' ? String(args.action) : request.params.name;
    if (world.hangTool === name) return new Promise<CallToolResult>(() => {});
    if (world.expireNext > 0) {
      world.expireNext -= 1;
      throw new McpError(-32001, 'Session expired (server may have restarted)');
    }
    if (epoch !== world.loginEpoch) {
      epoch = world.loginEpoch;
      user = undefined;
    }
    if (world.rateLimitNext > 0) {
      world.rateLimitNext -= 1;
      return fail(world, 'rate_limited', `too many requests, try again in ${world.retryAfter} seconds`, { retry_after: world.retryAfter });
    }
    if (name === 'register') {
      const username = String(args.username);
      const password = randomBytes(32).toString('hex');
      world.accounts.set(username, password);
      world.live.set(username, sessionId);
      user = username;
      return ok(world, `Welcome, ${username}! Your password is ${password} - keep it safe.`, {
        details: { player_id: 'p1', password, message: 'registered' },
        player: { username },
      });
    }
    if (name === 'login') {
      world.logins += 1;
      const username = String(args.username);
      if (world.accounts.get(username) !== args.password) return fail(world, 'invalid_credentials', 'wrong username or password');
      world.live.set(username, sessionId);
      user = username;
      return ok(world, `Logged in as ${username}.`, { player: { username } });
    }
    if (!user) return fail(world, 'not_authenticated', 'log in first');
    if (world.live.get(user) !== sessionId) {
      user = undefined;
      return fail(world, 'session_replaced', 'another login took over this player');
    }
    if (name === 'chat') {
      world.said.push(String(args.content));
      return ok(world, 'sent', {});
    }
    if (name === 'logout') {
      user = undefined;
      return ok(world, 'Logged out.', {});
    }
    if (name === 'sell') return fail(world, 'insufficient_cargo', 'you have none of that');
    if (name === 'get_notifications') {
      const list = world.notifications.splice(0);
      const text = list.length === 0 ? 'No notifications.' : list.map((item) => `${item.from ?? item.type}: ${item.message}`).join('\n');
      return ok(world, text, { details: { notifications: list, remaining: 0 } });
    }
    return ok(world, `${user} | docked | Credits: 150`, { player: { username: user } });
  });
  return server;
}

export function inMemoryTarget(world: FakeWorld): { kind: 'transport'; label: string; url: string; connect: () => Promise<Transport> } {
  return {
    kind: 'transport',
    label: 'fake',
    url: 'fake://game',
    connect: async () => {
      const [client, server] = InMemoryTransport.createLinkedPair();
      await createGameServer(world).connect(server);
      return client;
    },
  };
}

export interface HttpGame {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Streamable HTTP at /mcp; `port` lets a test restart the server where the client expects it. */
export async function listenHttp(world: FakeWorld, port = 0): Promise<HttpGame> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!request.url?.startsWith('/mcp')) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html>not found</html>');
      return;
    }
    if (request.method === 'POST' && world.http429Next > 0) {
      world.http429Next -= 1;
      response.writeHead(429, { 'retry-after': String(world.retryAfter) }).end('slow down');
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = transports.get(sessionId);
      if (!transport) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      await transport.handleRequest(request, response);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    await createGameServer(world).connect(transport);
    await transport.handleRequest(request, response);
  };
  const server: HttpServer = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    close: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => {});
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function memoryCredentials(): {
  store: Map<string, string>;
  get(gameUrl: string, username: string): { username: string; password: string } | undefined;
  latest(gameUrl: string): { username: string; password: string } | undefined;
  put(gameUrl: string, username: string, password: string): void;
} {
  const store = new Map<string, string>();
  const order: string[] = [];
  return {
    store,
    get: (gameUrl, username) => {
      const password = store.get(`${gameUrl} ${username}`);
      return password === undefined ? undefined : { username, password };
    },
    latest: (gameUrl) => {
      for (let index = order.length - 1; index >= 0; index -= 1) {
        const key = order[index] ?? '';
        if (key.startsWith(`${gameUrl} `)) {
          return { username: key.slice(gameUrl.length + 1), password: store.get(key) ?? '' };
        }
      }
      return undefined;
    },
    put: (gameUrl, username, password) => {
      const key = `${gameUrl} ${username}`;
      store.set(key, password);
      const at = order.indexOf(key);
      if (at >= 0) order.splice(at, 1);
      order.push(key);
    },
  };
}
