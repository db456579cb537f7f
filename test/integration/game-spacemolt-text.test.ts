// The game layer against an in-test SpaceMolt look-alike over real Streamable HTTP: grouped v2 tools at /mcp/v2 and
// flat v1 tools at /mcp, answering with the sample texts of test/fixtures/spacemolt (no structuredContent).
// Checks: the profile, the registration code filled and redacted, state read from text, per-call timeouts, and a
// second connection (either face) whose first call is the login.
import { randomUUID } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectGame, renderEvents, type GameConnection } from '../../internal/game/index.js';
import * as S from '../fixtures/spacemolt/text-samples.js';
import { memoryCredentials } from '../fakes/memory-credentials.js';

const CODE = 'rc-0a1b2c3d4e5f6071';
const PASSWORD = /Password: ([0-9a-f]{64})/.exec(S.REGISTER)?.[1] ?? '';
const SESSION_ID = /Session ID: ([0-9a-f]{64})/.exec(S.LOGIN)?.[1] ?? '';

interface Seen {
  face: 'v1' | 'v2';
  tool: string;
  args: Record<string, unknown>;
}

const action = (names: string[]) => ({ type: 'string', enum: names });
const V2_TOOLS = [
  {
    name: 'spacemolt_auth',
    properties: {
      action: action(['register', 'login', 'logout']),
      username: {},
      password: {},
      empire: {},
      registration_code: {},
    },
  },
  {
    name: 'spacemolt',
    properties: {
      action: action(['get_status', 'get_system', 'mine', 'get_notifications']),
      id: {},
      limit: {},
      clear: {},
    },
  },
  { name: 'spacemolt_social', properties: { action: action(['chat', 'captains_log_add']), target: {}, content: {} } },
];
const V1_TOOLS = ['register', 'login', 'get_status', 'get_system', 'mine', 'travel', 'get_notifications'].map(
  (name) => ({
    name,
    properties:
      name === 'register'
        ? { username: {}, empire: {}, registration_code: {} }
        : name === 'login'
          ? { username: {}, password: {} }
          : {},
  }),
);

function gameServer(face: 'v1' | 'v2', seen: Seen[]): Server {
  const server = new Server({ name: 'spacemolt', version: '0.490.1' }, { capabilities: { tools: {} } });
  let user: string | undefined;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: (face === 'v2' ? V2_TOOLS : V1_TOOLS).map((tool) => ({
      name: tool.name,
      description: tool.name,
      inputSchema: { type: 'object' as const, properties: tool.properties },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    seen.push({ face, tool: request.params.name, args });
    const op = face === 'v2' ? String(args.action) : request.params.name;
    const text = (value: string, isError = false): CallToolResult => ({
      content: [{ type: 'text', text: value }],
      ...(isError ? { isError } : {}),
    });
    if (op === 'register') {
      if (args.registration_code !== CODE) return text(S.ERROR_REGISTRATION_CODE, true);
      user = 'Nova';
      // Echoes the code back, as a careless server might: Skipper must hide it.
      return text(`${S.REGISTER}\nRegistration code ${CODE} used.`);
    }
    if (op === 'login') {
      if (args.password !== PASSWORD) return text('Error: invalid_credentials: wrong username or password', true);
      user = 'Nova';
      return text(S.LOGIN);
    }
    if (!user) return text('Error: not_authenticated: log in first', true);
    if (op === 'get_system') return new Promise<CallToolResult>(() => {}); // never answers
    if (op === 'mine') {
      await new Promise((resolve) => setTimeout(resolve, 600)); // blocks until the tick resolves
      return text(S.MINE);
    }
    if (op === 'get_notifications') return text(S.GET_NOTIFICATIONS);
    return text(S.STATUS_DOCKED);
  });
  return server;
}

async function listen(seen: Seen[]): Promise<{ origin: string; close: () => Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((request, response) => {
    const face = request.url?.startsWith('/mcp/v2') ? 'v2' : 'v1';
    const sessionId = request.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (known) {
      void known.handleRequest(request, response);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    void gameServer(face, seen)
      .connect(transport)
      .then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('SpaceMolt text faces over HTTP', () => {
  it('registers on v2 with the code, reads state from text, times calls by kind, and logs in first on either face', async () => {
    const seen: Seen[] = [];
    const server = await listen(seen);
    cleanup.push(server.close);
    const credentials = memoryCredentials();
    const open = async (
      path: string,
      extra: Partial<Parameters<typeof connectGame>[0]> = {},
    ): Promise<GameConnection> => {
      const game = await connectGame({
        target: { kind: 'http', url: `${server.origin}${path}` },
        credentials,
        // A query's timeout generous for a busy machine; a mutation's longer than the test's own timeout, so a query
        // held to it would fail the test.
        timeouts: { queryMs: 1_500, mutationMs: 120_000 },
        ...extra,
      });
      cleanup.push(() => game.close());
      return game;
    };

    const first = await open('/mcp/v2?preset=standard', { registrationCode: CODE });
    await first.listTools();
    expect(first.profile()).toMatchObject({ id: 'spacemolt-v2', server: 'spacemolt' });
    const registered = await first.call('spacemolt_auth', {
      action: 'register',
      username: 'Nova',
      empire: 'solarian',
      registration_code: '[saved]',
    });
    expect(seen.at(-1)?.args.registration_code).toBe(CODE);
    expect(registered.isError).toBe(false);
    for (const secret of [CODE, PASSWORD, SESSION_ID]) expect(JSON.stringify(registered)).not.toContain(secret);
    expect(registered.text).toContain('Session ID: [hidden]');
    expect(registered.text).toContain('Registration code [saved] used.');
    // The real greeting carries no status block: register's data holds no state, get_status does.
    expect(registered.data).toMatchObject({ op: 'register' });
    expect(registered.data).not.toHaveProperty('player');
    expect((await credentials.get(server.origin, 'Nova'))?.password).toBe(PASSWORD);
    const status = await first.call('spacemolt', { action: 'get_status' });
    expect(status.data).toMatchObject({
      op: 'get_status',
      player: { username: 'Nova', credits: 1234 },
      location: { docked: true, poi_id: 'sol_station', system_id: 'sol' },
      ship: { fuel: 92 },
    });

    // A query that never answers ends at the query timeout; a mutation that blocks for a tick is waited for.
    expect(await first.call('spacemolt', { action: 'get_system' })).toMatchObject({ isError: true, code: 'timeout' });
    const mined = await first.call('spacemolt', { action: 'mine' });
    expect(mined.isError).toBe(false);
    expect(mined.data).toMatchObject({ op: 'mine', details: { resource_id: 'iron_ore', quantity: 5 } });
    expect(mined.data).not.toHaveProperty('ship'); // the real mine sentence says nothing of the ship

    // Events come from the notifications action, chat wrapped as untrusted.
    const fetched = await first.fetchEvents();
    const events = fetched && renderEvents(fetched);
    expect(events).toContain('<untrusted source="chat" from="Vega">anyone selling platinum?</untrusted>');

    // A second connection on each face: its first call is the login, with the stored password.
    for (const path of ['/mcp/v2?preset=standard', '/mcp']) {
      const before = seen.length;
      const next = await open(path);
      expect(await next.loginIfKnown()).toBe(true);
      expect(seen[before]).toEqual(
        path === '/mcp'
          ? { face: 'v1', tool: 'login', args: { username: 'Nova', password: PASSWORD } }
          : { face: 'v2', tool: 'spacemolt_auth', args: { action: 'login', username: 'Nova', password: PASSWORD } },
      );
      expect(
        (await next.call(path === '/mcp' ? 'get_status' : 'spacemolt', path === '/mcp' ? {} : { action: 'get_status' }))
          .data,
      ).toMatchObject({ player: { username: 'Nova' } });
    }
  });

  it('refuses register without a code and never reaches the server', async () => {
    const seen: Seen[] = [];
    const server = await listen(seen);
    cleanup.push(server.close);
    const game = await connectGame({
      target: { kind: 'http', url: `${server.origin}/mcp` },
      credentials: memoryCredentials(),
    });
    cleanup.push(() => game.close());
    const result = await game.call('register', { username: 'Nova', empire: 'solarian' });
    expect(result.code).toBe('registration_code_missing');
    expect(seen).toEqual([]);
  });
});
