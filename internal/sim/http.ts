// minimolt over HTTP: MCP Streamable HTTP on /mcp/v2 (SpaceMolt's grouped face; ?preset=basic|standard|full and
// &exclude=a,b) and /mcp (the flat v1 face), one transport + server per Mcp-Session-Id (DELETE closes); GET /health,
// GET /stats (loopback only), and the key API SpaceMolt's clients use to log in without a password
// (GET /api/registration-code, POST /api/player/{id}/ws-token: api-keys.ts). /mcp, /mcp/v2, /stats and /api check
// Host and Origin first (http-guard.ts); during an auth outage the key API and the account calls answer 503. Sessions are
// bounded in number and idle time (http-sessions.ts). Each MCP session learns the client's address, for the
// per-address login limits. The transport is our lean node one (see node-transport.ts). Request bodies are read here
// with a cap (1 MB by default), so a huge body is refused with 413 before it costs memory, and the parsed JSON is
// handed to the transport. Requests the SDK would leave unanswered are answered (rpc-check.ts): an initialize among
// them makes no session.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonRpcMessage, type Logger } from '../shared/index.js';
import { answerKeyApi, authDown, isAccountCall, isKeyApiPath, type KeyDesk } from './api-keys.js';
import type { FaceOptions } from './faces/face.js';
import { allowCors, clientAddress, hostGuard, isLoopback, type HostGuard } from './http-guard.js';
import { resolveHttpLimits, SessionTable, type HttpLimits } from './http-sessions.js';
import type { McpSession } from './mcp-server.js';
import { NodeStreamableTransport } from './node-transport.js';
import { refuseRequest } from './rpc-check.js';

export { MAX_BODY_BYTES, type HttpLimits } from './http-sessions.js';
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

export interface HttpHandle {
  /** The flat v1 face: http://host:port/mcp. */
  url: string;
  /** The grouped v2 face (recommended): http://host:port/mcp/v2. */
  v2Url: string;
  port: number;
  /** The Host names /mcp and /stats answer to (`name` or `name:port`; a bare name means on this port). */
  allowedHosts: string[];
  /** Bound to every address with no extra allowed hosts: loopback names and this machine's addresses only. */
  wildcardDefault: boolean;
  close(): Promise<void>;
}

export interface HttpOptions extends HttpLimits {
  host: string;
  port: number;
  logger: Logger;
  /** More Host names to serve besides loopback and the listen address (DNS-rebinding protection). */
  allowedHosts?: readonly string[];
  /** The clock for idle sessions (tests move it). */
  now?: () => number;
  newSession(face: FaceOptions, address: string): McpSession;
  /** The key API's desk (and the auth outage it plays). */
  keys: KeyDesk;
  health(): Record<string, unknown>;
  stats(): unknown;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function rpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

/** /mcp is the v1 face; /mcp/v2 the v2 face with its preset and exclusions from the query string. */
function faceOf(path: string, query: URLSearchParams): FaceOptions {
  if (path === '/mcp') return { face: 'v1' };
  const exclude = (query.get('exclude') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return { face: 'v2', preset: query.get('preset') ?? undefined, exclude };
}

/**
 * Reads the body up to the cap; null when it is too large. An oversized body is drained and discarded before we answer
 * (answering mid-upload makes clients see a reset instead of the 413); past DRAIN_LIMIT the connection is cut.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (chunks.length > 0) chunks.length = 0;
      if (size > DRAIN_LIMIT_BYTES) {
        req.destroy();
        resolve(null);
      }
    });
    req.on('end', () => resolve(size > maxBytes ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** What every request of one listening server shares. */
interface HttpContext {
  options: HttpOptions;
  limits: Required<HttpLimits>;
  sessions: SessionTable;
  now: () => number;
  /** Made before listening, and again once the port is known. */
  guard: HostGuard;
}

/** One request to /mcp or /mcp/v2, with its body read (POST) or undefined. */
interface McpRequest {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export async function listenHttp(options: HttpOptions): Promise<HttpHandle> {
  const limits = resolveHttpLimits(options);
  const now = options.now ?? Date.now;
  const context: HttpContext = {
    options,
    limits,
    now,
    sessions: new SessionTable(limits, now),
    // Checked before listening; the port is known after, and the guard is made again then.
    guard: hostGuard({ listenHost: options.host, port: options.port, allowedHosts: options.allowedHosts }),
  };
  const server: NodeServer = createServer((req, res) => handleRequest(context, req, res));
  server.keepAliveTimeout = 65_000;
  await listenOn(server, options);
  server.on('error', (error) => options.logger.error({ err: error }, 'http server error'));

  const sweeper = setInterval(() => context.sessions.sweep(), Math.min(60_000, limits.idleTimeoutMs));
  sweeper.unref();

  const address = server.address() as AddressInfo;
  context.guard = hostGuard({ listenHost: options.host, port: address.port, allowedHosts: options.allowedHosts });
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    v2Url: `http://${shownHost}:${address.port}/mcp/v2`,
    port: address.port,
    allowedHosts: context.guard.names,
    wildcardDefault: context.guard.wildcardDefault,
    close: async () => {
      clearInterval(sweeper);
      await context.sessions.closeAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function listenOn(server: NodeServer, options: Pick<HttpOptions, 'host' | 'port'>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Host and Origin first (for /mcp, /mcp/v2 and /stats), CORS preflights, then the route; a failure answers 500. */
function handleRequest(context: HttpContext, req: IncomingMessage, res: ServerResponse): void {
  const { options } = context;
  const [path = '/', search = ''] = (req.url ?? '/').split('?');
  const guarded = path === '/mcp' || path === '/mcp/v2' || path === '/stats' || isKeyApiPath(path);
  const refusal = guarded ? context.guard.refusal(req) : null;
  if (refusal) {
    rpcError(res, 403, -32000, refusal);
    return;
  }
  if (allowCors(req, res, context.guard)) return;
  const done = (error: unknown): void => {
    options.logger.error({ err: error, path }, 'http request failed');
    if (!res.headersSent) rpcError(res, 500, -32603, 'internal server error');
    else res.end();
  };
  try {
    if (path === '/mcp' || path === '/mcp/v2') {
      handleMcp(context, { req, res, path, query: new URLSearchParams(search) }).catch(done);
    } else if (isKeyApiPath(path)) {
      const answer = answerKeyApi(options.keys, {
        method: req.method ?? 'GET',
        path,
        authorization: req.headers.authorization,
      });
      sendJson(res, answer.status, answer.body, answer.headers);
    } else if (path === '/health' && req.method === 'GET') {
      sendJson(res, 200, options.health());
    } else if (path === '/stats' && req.method === 'GET') {
      if (!isLoopback(req.socket.remoteAddress))
        sendJson(res, 403, { error: 'stats are served to loopback clients only' });
      else sendJson(res, 200, options.stats());
    } else {
      sendJson(res, 404, {
        error:
          'not found: MCP is at /mcp/v2 (grouped tools) and /mcp (flat tools); also GET /health, GET /stats, ' +
          'GET /api/registration-code and POST /api/player/{id}/ws-token',
      });
    }
  } catch (error) {
    done(error);
  }
}

async function handleMcp(context: HttpContext, request: Omit<McpRequest, 'body'>): Promise<void> {
  const { req, res } = request;
  let body: unknown;
  if (req.method === 'POST') {
    const read = await readJsonBody(req, res, context.limits.maxBodyBytes);
    if (!read.ok) return;
    body = read.body;
    const outage = context.options.keys.outageSeconds();
    if (outage > 0 && isAccountCall(body)) {
      context.options.keys.counters.outageAnswers += 1;
      const down = authDown(outage);
      sendJson(res, down.status, down.body, down.headers);
      return;
    }
  }
  const sessionId = req.headers['mcp-session-id'];
  const id = Array.isArray(sessionId) ? sessionId[0] : sessionId;
  if (id) await serveSession(context, { ...request, body }, id);
  else await initializeSession(context, { ...request, body });
}

/** A POST's body as JSON; a body too large or not JSON is answered here (ok: false). */
async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const raw = await readBody(req, maxBytes);
  if (raw === null) {
    rpcError(res, 413, -32600, `request body too large: at most ${maxBytes} bytes`, { connection: 'close' });
    return { ok: false };
  }
  try {
    return { ok: true, body: JSON.parse(raw.toString('utf8')) };
  } catch {
    rpcError(res, 400, -32700, 'parse error: the body is not valid JSON');
    return { ok: false };
  }
}

/** A request in an existing session: POST a message, GET the event stream, DELETE to close it. */
async function serveSession(context: HttpContext, request: McpRequest, id: string): Promise<void> {
  const { req, res, path, body } = request;
  const entry = context.sessions.get(id, path);
  if (!entry) {
    rpcError(res, 404, -32001, 'session not found: it expired or the server restarted; initialize a new session');
    return;
  }
  if (req.method === 'POST') {
    context.sessions.begin(entry, (done) => res.once('close', done));
    entry.transport.handlePost(res, body);
  } else if (req.method === 'GET') entry.transport.handleGet(req, res);
  else if (req.method === 'DELETE') {
    await entry.transport.close();
    res.writeHead(200).end();
  } else rpcError(res, 405, -32000, 'method not allowed: use POST, GET or DELETE', { allow: 'GET, POST, DELETE' });
}

/** A request without a session: only an initialize the SDK would answer opens one, if there is room. */
async function initializeSession(context: HttpContext, request: McpRequest): Promise<void> {
  const { req, res, path, query, body } = request;
  const { sessions, limits } = context;
  if (req.method !== 'POST' || !isInitialize(body)) {
    rpcError(res, 400, -32000, 'no Mcp-Session-Id: start with an initialize request');
    return;
  }
  // An initialize the SDK would not answer (an id of 1.5 or 1e400…) is answered without making a session for it.
  const refused = isJsonRpcMessage(body) && 'id' in body ? refuseRequest(body) : null;
  if (refused) {
    sendJson(res, 200, refused);
    return;
  }
  if (!sessions.makeRoom()) {
    rpcError(res, 503, -32000, `too many sessions: all ${limits.maxSessions} are busy; try again shortly`, {
      'retry-after': '5',
    });
    return;
  }
  const session = context.options.newSession(faceOf(path, query), clientAddress(req));
  const transport = new NodeStreamableTransport(randomUUID());
  const entry = { id: transport.sessionId, path, transport, session, lastSeen: context.now(), active: 0 };
  sessions.add(entry);
  sessions.begin(entry, (done) => res.once('close', done)); // busy from the start: never evicted before it answers
  transport.onclose = () => {
    sessions.delete(transport.sessionId);
    session.game.close();
  };
  await session.connect(transport);
  transport.handlePost(res, body);
}
