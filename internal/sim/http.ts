// minimolt over HTTP: MCP Streamable HTTP on /mcp/v2 (SpaceMolt's grouped face; ?preset=basic|standard|full and
// &exclude=a,b) and /mcp (the flat v1 face), one transport + server per Mcp-Session-Id (DELETE closes); GET /health,
// GET /stats (loopback only). Each MCP session learns the client's address, for the per-address login limit. The transport is our lean node one (see node-transport.ts). Request bodies are read here with a 1 MB cap, so a huge body is refused
// with 413 before it costs memory, and the parsed JSON is handed to the transport.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../shared/index.js';
import type { FaceOptions } from './faces/face.js';
import type { McpSession } from './mcp-server.js';
import { NodeStreamableTransport } from './node-transport.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const IDLE_SESSION_MS = 30 * 60_000;

export interface HttpHandle {
  /** The flat v1 face: http://host:port/mcp. */
  url: string;
  /** The grouped v2 face (recommended): http://host:port/mcp/v2. */
  v2Url: string;
  port: number;
  close(): Promise<void>;
}

export interface HttpOptions {
  host: string;
  port: number;
  logger: Logger;
  newSession(face: FaceOptions, address: string): McpSession;
  health(): Record<string, unknown>;
  stats(): unknown;
}

interface Entry {
  /** The path the session was opened on: a session answers on its own face only. */
  path: string;
  transport: NodeStreamableTransport;
  session: McpSession;
  lastSeen: number;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, headers?: Record<string, string>): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}

function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * Browser-based MCP inspectors served from this machine (http://localhost:PORT) may talk to us directly; other web
 * origins get no CORS headers, so a web page cannot drive a local game. Returns true when it answered a preflight.
 */
function allowCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (!origin || !LOCAL_ORIGIN.test(origin)) return false;
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('vary', 'Origin');
  res.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
  if (req.method !== 'OPTIONS') return false;
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
    'access-control-max-age': '600',
  });
  res.end();
  return true;
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/** The socket's peer (never a forwarded-for header, which any client can write): IPv4-mapped IPv6 as plain IPv4. */
function clientAddress(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** /mcp is the v1 face; /mcp/v2 the v2 face with its preset and exclusions from the query string. */
function faceOf(path: string, query: URLSearchParams): FaceOptions {
  if (path === '/mcp') return { face: 'v1' };
  const exclude = (query.get('exclude') ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  return { face: 'v2', preset: query.get('preset') ?? undefined, exclude };
}

/**
 * Reads the body up to the cap; null when it is too large. An oversized body is drained and discarded before we answer
 * (answering mid-upload makes clients see a reset instead of the 413); past DRAIN_LIMIT the connection is cut.
 */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else if (chunks.length > 0) chunks.length = 0;
      if (size > DRAIN_LIMIT_BYTES) {
        req.destroy();
        resolve(null);
      }
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function listenHttp(options: HttpOptions): Promise<HttpHandle> {
  const sessions = new Map<string, Entry>();

  const handleMcp = async (req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const id = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    let body: unknown;
    if (req.method === 'POST') {
      const raw = await readBody(req);
      if (raw === null) {
        rpcError(res, 413, -32600, `request body too large: at most ${MAX_BODY_BYTES} bytes`, { connection: 'close' });
        return;
      }
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        rpcError(res, 400, -32700, 'parse error: the body is not valid JSON');
        return;
      }
    }
    if (id) {
      const entry = sessions.get(id);
      if (!entry || entry.path !== path) {
        rpcError(res, 404, -32001, 'session not found: it expired or the server restarted; initialize a new session');
        return;
      }
      entry.lastSeen = Date.now();
      if (req.method === 'POST') entry.transport.handlePost(res, body);
      else if (req.method === 'GET') entry.transport.handleGet(req, res);
      else if (req.method === 'DELETE') {
        await entry.transport.close();
        res.writeHead(200).end();
      } else rpcError(res, 405, -32000, 'method not allowed: use POST, GET or DELETE', { allow: 'GET, POST, DELETE' });
      return;
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      rpcError(res, 400, -32000, 'no Mcp-Session-Id: start with an initialize request');
      return;
    }
    const session = options.newSession(faceOf(path, query), clientAddress(req));
    const transport = new NodeStreamableTransport(randomUUID());
    sessions.set(transport.sessionId, { path, transport, session, lastSeen: Date.now() });
    transport.onclose = () => {
      sessions.delete(transport.sessionId);
      session.game.close();
    };
    await session.server.connect(transport);
    transport.handlePost(res, body);
  };

  const server: NodeServer = createServer((req, res) => {
    const [path = '/', search = ''] = (req.url ?? '/').split('?');
    if (allowCors(req, res)) return;
    const done = (error: unknown): void => {
      options.logger.error({ err: error, path }, 'http request failed');
      if (!res.headersSent) rpcError(res, 500, -32603, 'internal server error');
      else res.end();
    };
    try {
      if (path === '/mcp' || path === '/mcp/v2') {
        handleMcp(req, res, path, new URLSearchParams(search)).catch(done);
      } else if (path === '/health' && req.method === 'GET') {
        sendJson(res, 200, options.health());
      } else if (path === '/stats' && req.method === 'GET') {
        if (!isLoopback(req.socket.remoteAddress)) sendJson(res, 403, { error: 'stats are served to loopback clients only' });
        else sendJson(res, 200, options.stats());
      } else {
        sendJson(res, 404, { error: 'not found: MCP is at /mcp/v2 (grouped tools) and /mcp (flat tools); also GET /health and GET /stats' });
      }
    } catch (error) {
      done(error);
    }
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', (error) => options.logger.error({ err: error }, 'http server error'));

  const sweeper = setInterval(() => {
    const cutoff = Date.now() - IDLE_SESSION_MS;
    for (const entry of sessions.values()) if (entry.lastSeen < cutoff) void entry.transport.close();
  }, 60_000);
  sweeper.unref();

  const address = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${address.port}/mcp`,
    v2Url: `http://${shownHost}:${address.port}/mcp/v2`,
    port: address.port,
    close: async () => {
      clearInterval(sweeper);
      await Promise.all([...sessions.values()].map((entry) => entry.transport.close().catch(() => {})));
      sessions.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
