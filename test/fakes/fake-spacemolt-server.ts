// A tiny SpaceMolt-shaped MCP server for the game-connection tests: text results only (as the real server sends
// them), on the flat v1 face, the grouped v2 face or a generic (non-SpaceMolt) tool set. Accounts shared across
// MCP sessions, one live session per player (a newer login displaces the older), a registration code, rate-limit
// and HTTP 429 knobs, chat that records what was said.
// Served in-process (inMemoryTarget, here) or over real HTTP (listenHttp, ./fake-spacemolt-http.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { FakeLimits } from './fake-limits.js';

export interface FakeWorld {
  accounts: Map<string, string>;
  /** username -> id of the session that holds the login. */
  live: Map<string, string>;
  said: string[];
  logEntries: string[];
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  logins: number;
  notifications: Array<{ id: number; type: string; channel?: string; from?: string; message: string }>;
  rateLimitNext: number;
  retryAfter: number;
  http429Next: number;
  /** Which face the server shows: SpaceMolt's flat v1, its grouped v2, or tools no profile knows. */
  face: 'v1' | 'v2' | 'generic';
  /** Tools carry readOnlyHint annotations (SpaceMolt sends none). */
  annotations: boolean;
  /** What register's registration_code must be; undefined = no code asked for. */
  registrationCode?: string;
  /** Calls to this op never answer (for timeouts). */
  hangTool?: string;
  /** The next N tool calls answer with JSON-RPC error -32001 "Session expired" (SpaceMolt after a restart). */
  expireNext: number;
  /** Bumping it logs every session out (their next call reads not_authenticated). */
  loginEpoch: number;
  /** Session ids handed out by login/register greetings, by username. */
  sessionIds: Map<string, string>;
  /** The real server's limits (queries, notifications, logins, refusals, IP timeout); none when undefined. */
  limits?: FakeLimits;
  /** The next call of a logged-in player (not login/register) answers this session error once; session_required
   * also makes every later call need the current session_id, whatever the schema declares (`json`: as JSON text). */
  sessionErrorNext?: { code: 'session_required' | 'session_invalid'; json?: boolean };
  /** Calls must carry the player's current session_id (set by a session_required answer). */
  requireSessionId?: boolean;
}

export function createWorld(overrides: Partial<FakeWorld> = {}): FakeWorld {
  return {
    accounts: new Map(),
    live: new Map(),
    said: [],
    logEntries: [],
    calls: [],
    logins: 0,
    notifications: [],
    rateLimitNext: 0,
    retryAfter: 1,
    http429Next: 0,
    face: 'v1',
    annotations: false,
    expireNext: 0,
    loginEpoch: 0,
    sessionIds: new Map(),
    ...overrides,
  };
}

interface FakeTool {
  name: string;
  readOnly: boolean;
  properties: Record<string, unknown>;
  required?: string[];
}

const str = { type: 'string' };
const num = { type: 'number' };

function toolsOf(world: FakeWorld): FakeTool[] {
  const registerProps = { username: str, empire: str, ...(world.registrationCode ? { registration_code: str } : {}) };
  if (world.face === 'v2') {
    return [
      {
        name: 'spacemolt_auth',
        readOnly: false,
        properties: {
          action: { type: 'string', enum: ['register', 'login', 'logout', 'claim'] },
          password: str,
          ...registerProps,
        },
      },
      {
        name: 'spacemolt',
        readOnly: false,
        properties: {
          action: { type: 'string', enum: ['get_status', 'mine', 'sell', 'get_notifications', 'travel'] },
          id: str,
          quantity: num,
          limit: num,
          clear: { type: 'boolean' },
          session_id: str,
        },
      },
      {
        name: 'spacemolt_social',
        readOnly: false,
        properties: {
          action: { type: 'string', enum: ['chat', 'captains_log_add', 'get_chat_history'] },
          target: str,
          content: str,
        },
      },
    ];
  }
  if (world.face === 'generic') {
    return [
      { name: 'register', readOnly: false, properties: { username: str, empire: str } },
      { name: 'login', readOnly: false, properties: { username: str, password: str } },
      { name: 'whoami', readOnly: true, properties: {} },
      { name: 'chat', readOnly: false, properties: { channel: str, content: str } },
      { name: 'get_notifications', readOnly: true, properties: { limit: num, clear: { type: 'boolean' } } },
    ];
  }
  return [
    {
      name: 'register',
      readOnly: false,
      properties: registerProps,
      required: ['username', 'empire', ...(world.registrationCode ? ['registration_code'] : [])],
    },
    { name: 'login', readOnly: false, properties: { username: str, password: str } },
    { name: 'get_status', readOnly: true, properties: {} },
    { name: 'chat', readOnly: false, properties: { channel: str, content: str } },
    { name: 'mine', readOnly: false, properties: {} },
    { name: 'logout', readOnly: false, properties: {} },
    { name: 'sell', readOnly: false, properties: { item_id: str, quantity: num } },
    { name: 'get_notifications', readOnly: true, properties: { limit: num, clear: { type: 'boolean' } } },
    { name: 'captains_log_add', readOnly: false, properties: { entry: str } },
  ];
}

/** What get_status says for a player, in the real server's style (see test/fixtures/spacemolt/text-samples.ts). */
export function statusText(username: string): string {
  return [
    `${username} [solarian] | 150cr | Sol`,
    'Ship: Theoria (theoria) | Hull: 100/100 | Speed: 1',
    'Fuel: 100/100 | Cargo: 0/70',
    'Docked at: sol_station',
    'Security: High Security (active police patrols)',
    'Connections: nexus_prime',
  ].join('\n');
}

function ok(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

function fail(code: string, message: string): CallToolResult {
  return { content: [{ type: 'text', text: `Error: ${code}: ${message}` }], isError: true };
}

/** The op a call is on the world's face (v2: the action; a few aliases keep generic tools apart). */
function opOf(world: FakeWorld, name: string, args: Record<string, unknown>): string {
  if (world.face === 'v2') return String(args.action ?? '');
  return name === 'whoami' ? 'get_status' : name;
}

/** One MCP session's own state: who is logged in on it, and the world's login epoch it last saw. */
interface Connection {
  sessionId: string;
  user: string | undefined;
  epoch: number;
}

type Args = Record<string, unknown>;

function toolList(world: FakeWorld): { tools: Tool[] } {
  return {
    tools: toolsOf(world).map((tool) => ({
      name: tool.name,
      description: `${tool.name} tool`,
      inputSchema: {
        type: 'object' as const,
        properties: tool.properties as Record<string, object>,
        ...(tool.required ? { required: tool.required } : {}),
      },
      ...(world.annotations ? { annotations: { readOnlyHint: tool.readOnly } } : {}),
    })),
  };
}

/** A session error the test queued (expired or session_required), or a call missing the session id once required. */
function sessionError(world: FakeWorld, conn: Connection, name: string, args: Args): CallToolResult | undefined {
  const user = conn.user;
  if (!user || name === 'login' || name === 'register') return undefined;
  const next = world.sessionErrorNext;
  if (next) {
    world.sessionErrorNext = undefined;
    if (next.code === 'session_required') world.requireSessionId = true;
    const message =
      next.code === 'session_required'
        ? 'include your session_id in every call'
        : 'your session is no longer valid; log in again';
    return next.json
      ? { content: [{ type: 'text', text: JSON.stringify({ code: next.code, message }) }], isError: true }
      : fail(next.code, message);
  }
  if (world.requireSessionId && args.session_id !== world.sessionIds.get(user))
    return fail('session_required', 'include your session_id in every call');
  return undefined;
}

/** The faults a test set on the world, in the order the server meets them: hang, expiry, a restart's logout, 429. */
function injectedFault(world: FakeWorld, conn: Connection, name: string): Promise<CallToolResult> | undefined {
  if (world.hangTool === name) return new Promise<CallToolResult>(() => {});
  if (world.expireNext > 0) {
    world.expireNext -= 1;
    throw new McpError(-32001, 'Session expired (server may have restarted)');
  }
  if (conn.epoch !== world.loginEpoch) {
    conn.epoch = world.loginEpoch;
    conn.user = undefined;
  }
  if (world.rateLimitNext > 0) {
    world.rateLimitNext -= 1;
    const text = JSON.stringify({
      code: 'rate_limited',
      message: `Too many requests: try again in ${world.retryAfter} seconds`,
      retry_after: world.retryAfter,
    });
    return Promise.resolve({ content: [{ type: 'text', text }], isError: true });
  }
  return undefined;
}

/** A fresh session id for this player, as the game's greeting shows it. */
function greet(world: FakeWorld, username: string): string {
  const id = randomBytes(32).toString('hex');
  world.sessionIds.set(username, id);
  return id;
}

/** register and login: the calls that make this session a player's. */
function signIn(world: FakeWorld, conn: Connection, name: string, args: Args): CallToolResult | undefined {
  if (name === 'register') {
    if (world.registrationCode !== undefined && args.registration_code !== world.registrationCode) {
      return fail('invalid_registration_code', 'a registration code is required: get one from your dashboard');
    }
    const username = String(args.username);
    const password = randomBytes(32).toString('hex');
    world.accounts.set(username, password);
    world.live.set(username, conn.sessionId);
    conn.user = username;
    return ok(
      [
        `Welcome to the galaxy, ${username} [solarian]!`,
        `Username: ${username}`,
        `Password: ${password}`,
        `Session ID: ${greet(world, username)}`,
        'Save your password now: it is shown only once.',
      ].join('\n'),
    );
  }
  if (name === 'login') {
    world.logins += 1;
    const username = String(args.username);
    if (world.accounts.get(username) !== args.password)
      return fail('invalid_credentials', 'wrong username or password');
    world.live.set(username, conn.sessionId);
    conn.user = username;
    return ok(`Welcome back, ${username}! Session ID: ${greet(world, username)}`);
  }
  return undefined;
}

/** What a logged-in player's call does; anything the fake does not model answers with the status. */
function playerAction(world: FakeWorld, conn: Connection, user: string, name: string, args: Args): CallToolResult {
  if (name === 'chat') {
    world.said.push(String(args.content));
    return ok('Message sent to system (3 pilot(s) in range).');
  }
  if (name === 'captains_log_add') {
    world.logEntries.push(String(args.entry ?? args.content));
    return ok(`Log entry #${world.logEntries.length - 1} saved.`);
  }
  if (name === 'logout') {
    conn.user = undefined;
    return ok('Logged out.');
  }
  if (name === 'sell') return fail('insufficient_cargo', 'you have none of that');
  if (name === 'mine') return ok('Mined 5 Iron Ore (iron_ore). Deposit remaining: 1,195. +5 mining xp.');
  if (name === 'get_notifications' || name === 'get_chat_history') {
    const list = world.notifications.splice(0);
    if (list.length === 0) return ok('No new notifications.');
    const lines = list.map(
      (item) =>
        `#${item.id} [${item.type}${item.channel ? `/${item.channel}` : ''}] ${item.from !== undefined ? `<${item.from}> ` : ''}${item.message}`,
    );
    return ok([`Notifications (${list.length}, 0 more waiting):`, ...lines].join('\n'));
  }
  return ok(statusText(user));
}

async function answerCall(world: FakeWorld, conn: Connection, name: string, args: Args): Promise<CallToolResult> {
  const fault = injectedFault(world, conn, name);
  if (fault) return fault;
  const signedIn = signIn(world, conn, name, args);
  if (signedIn) return signedIn;
  const user = conn.user;
  if (!user) return fail('not_authenticated', 'log in first');
  if (world.live.get(user) !== conn.sessionId) {
    conn.user = undefined;
    return fail('session_replaced', 'another login took over this player');
  }
  return playerAction(world, conn, user, name, args);
}

/** One MCP server per session, sharing the world. */
export function createGameServer(world: FakeWorld): Server {
  const conn: Connection = { sessionId: randomUUID(), user: undefined, epoch: world.loginEpoch };
  const server = new Server({ name: 'fake-game', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => toolList(world));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Args;
    world.calls.push({ tool: request.params.name, args });
    const name = opOf(world, request.params.name, args);
    const refused = world.limits?.refuse({ op: name, user: conn.user }) ?? sessionError(world, conn, name, args);
    const answer = refused ?? (await answerCall(world, conn, name, args));
    world.limits?.answered(answer);
    return answer;
  });
  return server;
}

export function inMemoryTarget(world: FakeWorld): {
  kind: 'transport';
  label: string;
  url: string;
  connect: () => Promise<Transport>;
} {
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
