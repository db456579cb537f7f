// The bridge's HTTP server (node:http): the page's assets from memory, a JSON API that pages what it reads, the
// server-sent-event stream, and the order endpoint. Guards, in order: the Host header must name this server (a
// DNS-rebinding page cannot talk to it), a server on a non-loopback address wants the token on every request, and
// an order (a write) wants it always, in a header a cross-site form cannot set. Limits (issue 48): a request's
// headers and body must arrive within WEB_REQUEST_TIMEOUT_MS, a body is at most WEB_BODY_MAX_BYTES, and at most
// WEB_EVENT_STREAMS_MAX event streams are open at once.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { z } from 'zod';
import {
  ORDER_MAX_CHARS,
  WEB_BODY_MAX_BYTES,
  WEB_EVENT_STREAMS_MAX,
  WEB_REQUEST_TIMEOUT_MS,
  type Logger,
} from '../shared/index.js';
import { FleetKnowledge } from '../fleet/index.js';
import type { SharedDanger, SharedMarketView } from '../spacemolt/index.js';
import type { Store } from '../store/index.js';
import { loadAssets, type Asset } from './assets.js';
import { Bridge, streamItem } from './bridge.js';
import { costPlot } from './cost.js';
import { counterfactualViews } from './counterfactuals.js';
import { EventHub } from './events.js';
import { DANGER_POLICE } from './galaxy.js';
import { fleetOverview } from './overview.js';
import { sessionReplay } from './replay.js';
import { systemKnowledge, type SystemKnowledge } from './system-knowledge.js';
import { isTrailWindow, TRAIL_WINDOWS, windowTrail, type TrailWindow } from './trails.js';
import { webJson } from './web-json.js';

export interface WebServerOptions {
  store: Store;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Made when absent. */
  token?: string;
  pollMs?: number;
  logger?: Logger;
  /** How long a request's headers and body may take to arrive (default WEB_REQUEST_TIMEOUT_MS; tests shorten it). */
  requestTimeoutMs?: number;
  /** One line when reading the store starts failing and when it works again (`skipper web` writes it to stderr). */
  report?: (line: string) => void;
}

export interface WebServer {
  url: string;
  /** The URL with the token, as printed: opening it lets the page send orders. */
  urlWithToken: string;
  token: string;
  bridge: Bridge;
  hub: EventHub;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
export const TOKEN_HEADER = 'x-skipper-token';
const COOKIE = 'skipper_token';
/** Bound to every address: the machine's own addresses name it too (from the LAN, with the token). */
const WILDCARD = new Set(['0.0.0.0', '::']);
/** Seconds a client turned away for too many event streams is asked to wait. */
const STREAMS_RETRY_AFTER_S = 5;
/** How often node looks for requests past their time (its default, 30 s, would let a slow body live 40 s). */
const TIMEOUT_CHECK_MS = 1000;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

export function newToken(): string {
  return randomBytes(18).toString('base64url');
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Listens, then polls the store once (the cards are ready when this resolves; the map fills in as old turns are read). */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? newToken();
  const bridge = new Bridge(options.store);
  const hub = new EventHub(bridge, {
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.report ? { report: options.report } : {}),
  });
  const assets = loadAssets();
  const context: RequestContext = {
    store: options.store,
    bridge,
    hub,
    assets,
    token,
    host,
    allTokened: !isLoopbackHost(host),
    port: 0,
    ...(options.logger ? { logger: options.logger } : {}),
  };
  const server = createServer(
    {
      // A slow body (headers, then a byte now and then) is answered 408 and closed instead of holding a socket.
      requestTimeout: options.requestTimeoutMs ?? WEB_REQUEST_TIMEOUT_MS,
      headersTimeout: options.requestTimeoutMs ?? WEB_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    (request, response) => void handle(context, request, response),
  );
  await listen(server, host, options.port ?? 0);
  context.port = (server.address() as AddressInfo).port;
  // Listening first: the first poll reads only each session's last turn, and older turns are caught up poll by poll.
  await hub.tick();
  hub.start();
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${context.port}/`;
  return {
    url,
    urlWithToken: `${url}?token=${token}`,
    token,
    bridge,
    hub,
    close: () => closeServer(server, hub),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function closeServer(server: Server, hub: EventHub): Promise<void> {
  const stopped = hub.stop();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  // The poll still reading finishes before the caller closes the store.
  await stopped;
}

interface RequestContext {
  store: Store;
  bridge: Bridge;
  hub: EventHub;
  assets: Map<string, Asset>;
  token: string;
  host: string;
  port: number;
  /** Not on loopback: every request needs the token. */
  allTokened: boolean;
  logger?: Logger;
}

async function handle(context: RequestContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const url = new URL(request.url ?? '/', 'http://bridge.invalid');
    checkHost(context, request);
    const tokenInQuery = url.searchParams.get('token');
    if (context.allTokened && !hasToken(context, request, tokenInQuery))
      throw new HttpError(403, 'this bridge needs its token: open the URL `skipper web` printed (with ?token=…)');
    if (tokenInQuery && sameToken(tokenInQuery, context.token)) {
      // The page's own requests (assets, the event stream) then carry it without putting it in every URL.
      response.setHeader('set-cookie', `${COOKIE}=${context.token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    await route(context, request, response, url);
  } catch (error) {
    const status = error instanceof HttpError ? error.status : storeDown(error) ? 503 : 500;
    const message = error instanceof Error ? error.message : String(error);
    if (status >= 500) context.logger?.error({ err: error }, 'web: request failed');
    if (!response.headersSent) sendJson(response, status, { error: message });
    else response.end();
  }
}

/** The store could not reach its database (PostgreSQL gone): the page may ask again. */
function storeDown(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'store_unavailable';
}

function checkHost(context: RequestContext, request: IncomingMessage): void {
  const header = request.headers.host ?? '';
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header);
  const name = match?.[1]?.replace(/^\[|\]$/g, '').toLowerCase();
  const port = match?.[2] ? Number(match[2]) : 80;
  const known =
    name !== undefined &&
    (LOOPBACK.has(name) || name === context.host.toLowerCase() || (WILDCARD.has(context.host) && ownAddress(name)));
  if (!known || port !== context.port)
    throw new HttpError(403, `Host "${header}" is not this bridge; open it by the address skipper web printed`);
}

/** An address of one of this machine's interfaces (read each time: addresses come and go with the network). */
export function ownAddress(name: string): boolean {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const entry of addresses ?? []) if (entry.address.toLowerCase() === name) return true;
  }
  return false;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(request: IncomingMessage): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === COOKIE) return value.join('=');
  }
  return null;
}

function hasToken(context: RequestContext, request: IncomingMessage, inQuery: string | null): boolean {
  const header = request.headers[TOKEN_HEADER];
  const candidates = [typeof header === 'string' ? header : null, inQuery, cookieToken(request)];
  return candidates.some((candidate) => candidate !== null && sameToken(candidate, context.token));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(webJson(body));
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(text);
}

async function route(
  context: RequestContext,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): Promise<void> {
  const path = url.pathname;
  if (request.method === 'POST' && path === '/api/orders')
    return sendJson(response, 201, await postOrder(context, request));
  if (request.method !== 'GET' && request.method !== 'HEAD')
    throw new HttpError(405, `${request.method} is not served here`);
  if (path === '/' || path.startsWith('/assets/'))
    return serveAsset(context, response, path === '/' ? '/index.html' : path.slice('/assets'.length));
  if (path === '/api/state') return sendJson(response, 200, await stateBody(context, request));
  if (path === '/api/galaxy') return sendJson(response, 200, galaxyBody(context));
  if (path === '/api/overview')
    return sendJson(response, 200, fleetOverview(context.bridge.cards(), await context.store.fleets.listFleets()));
  if (path === '/api/cost')
    return sendJson(response, 200, await costPlot(context.store, context.bridge.cards(), Date.now()));
  if (path === '/api/events') return subscribe(context, response, url);
  if (path === '/api/trails') return sendJson(response, 200, await trailsBody(context, url));
  const systemRoute = /^\/api\/systems\/([^/]+)$/.exec(path);
  if (systemRoute) return sendJson(response, 200, await systemBody(context, decoded(systemRoute[1]!)));
  const sessionRoute = /^\/api\/sessions\/([^/]+)\/(messages|snapshots|replay|counterfactuals)$/.exec(path);
  if (sessionRoute) {
    const sessionId = await sessionOf(context, decoded(sessionRoute[1]!));
    return sendJson(response, 200, await sessionBody(context, sessionId, sessionRoute[2]!, url));
  }
  throw new HttpError(404, `nothing at ${path}`);
}

function subscribe(context: RequestContext, response: ServerResponse, url: URL): void {
  const sessionId = query(url, eventsQuery).session ?? null;
  if (context.hub.clientCount >= WEB_EVENT_STREAMS_MAX) {
    response.setHeader('retry-after', String(STREAMS_RETRY_AFTER_S));
    throw new HttpError(503, `${WEB_EVENT_STREAMS_MAX} event streams are open already; try again later`);
  }
  context.hub.subscribe(response, sessionId);
}

/** A path segment decoded; a malformed escape (`%E0%A4%A`) is the client's mistake (400), not the server's. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `bad escape in the path: ${segment.slice(0, 200)}`);
  }
}

async function sessionBody(context: RequestContext, sessionId: string, what: string, url: URL): Promise<unknown> {
  if (what === 'messages') return await messagesPage(context, sessionId, url);
  if (what === 'snapshots') return await snapshotsPage(context, sessionId, url);
  if (what === 'replay') return await replayPage(context, sessionId, url);
  return { sessionId, runs: await counterfactualViews(context.store, sessionId) };
}

function serveAsset(context: RequestContext, response: ServerResponse, name: string): void {
  const asset = context.assets.get(name);
  if (!asset) throw new HttpError(404, `no asset ${name}`);
  response.writeHead(200, {
    'content-type': asset.type,
    'cache-control': 'no-cache',
    // Inert by policy as well as by construction: nothing but our own script runs, nothing loads from elsewhere.
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  response.end(asset.body);
}

/** Orders are refused without the token in the header: the page says so on its controls before one is tried. */
export const NO_TOKEN_FOR_ORDERS = 'orders need the token: open the URL `skipper web` printed (with ?token=…)';

async function stateBody(context: RequestContext, request: IncomingMessage): Promise<unknown> {
  const fleets = await context.store.fleets.listFleets();
  const header = request.headers[TOKEN_HEADER];
  const allowed = typeof header === 'string' && sameToken(header, context.token);
  return {
    captains: context.bridge.cards(),
    galaxy: galaxyBody(context),
    controls: fleets.length > 0,
    alerts: context.bridge.alerts(),
    orders: { allowed, why: allowed ? null : NO_TOKEN_FOR_ORDERS },
  };
}

function galaxyBody(context: RequestContext): unknown {
  const galaxy = context.bridge.galaxy;
  return { version: galaxy.version, systems: galaxy.view(), names: galaxy.names() };
}

/** Shared dangers are listed for a week (the fleet itself steers clear of them for minutes only). */
const DANGERS_SHOWN_MS = TRAIL_WINDOWS['7d'];

async function systemBody(context: RequestContext, systemId: string): Promise<SystemKnowledge> {
  const galaxy = context.bridge.galaxy;
  const system = galaxy.view().find((known) => known.id === systemId);
  if (!system)
    throw new HttpError(
      404,
      `no system "${systemId.slice(0, 200)}" on the fleet's map; the known ones are at /api/galaxy`,
    );
  const now = Date.now();
  const markets: SharedMarketView[] = [];
  const dangers: SharedDanger[] = [];
  for (const fleet of await context.store.fleets.listFleets()) {
    const knowledge = await FleetKnowledge.open({
      fleet: fleet.name,
      store: context.store.fleets,
      dangerMs: DANGERS_SHOWN_MS,
      now: () => now,
    });
    markets.push(...knowledge.markets());
    dangers.push(...knowledge.dangers());
  }
  return systemKnowledge({
    system,
    nameOf: (id) => galaxy.nameOf(id),
    deposits: (poiId) => galaxy.deposits(poiId),
    markets,
    dangers,
    cards: context.bridge.cards(),
    dangerPolice: DANGER_POLICE,
    now,
  });
}

const trailsQuery = z.object({
  window: z.string().refine(isTrailWindow, { message: `one of ${Object.keys(TRAIL_WINDOWS).join(', ')}` }),
});

/** Every captain's trail over a window (trails.ts), from its stored snapshots. */
async function trailsBody(context: RequestContext, url: URL): Promise<unknown> {
  const window = query(url, trailsQuery).window as TrailWindow;
  const since = Date.now() - TRAIL_WINDOWS[window];
  const captains = [];
  for (const card of context.bridge.cards()) {
    const points = windowTrail(await context.store.snapshots(card.sessionId), { since });
    captains.push({ sessionId: card.sessionId, name: card.name, points });
  }
  return { window, since, captains };
}

async function sessionOf(context: RequestContext, nameOrId: string): Promise<string> {
  const session = await context.store.findSession(nameOrId);
  if (!session) throw new HttpError(404, `no session "${nameOrId}"; the captains are listed at /api/state`);
  return session.id;
}

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const eventsQuery = z.object({ session: z.string().min(1).max(200).optional() });
const messagesQuery = z.object({ before_turn: integer(1, 1e9).optional(), turns: integer(1, 50).default(5) });
const snapshotsQuery = z.object({ offset: integer(0, 1e9).default(0), limit: integer(1, 5000).default(2000) });

function query<T extends z.ZodType>(url: URL, schema: T): z.infer<T> {
  const values: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (key !== 'token') values[key] = value;
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HttpError(400, `bad query parameter ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** A page of whole turns, newest page first: `next_before_turn` asks for the page before it (null at the start). */
async function messagesPage(context: RequestContext, sessionId: string, url: URL): Promise<unknown> {
  const { before_turn: beforeTurn, turns } = query(url, messagesQuery);
  const end = beforeTurn ?? (await context.store.lastTurn(sessionId)) + 1;
  const fromTurn = Math.max(0, end - turns);
  const items = [];
  let seq = 0;
  for await (const message of context.store.iterateMessages(sessionId, { fromTurn, toTurn: end - 1 }))
    items.push(streamItem(message, ++seq));
  return { sessionId, fromTurn, toTurn: end - 1, nextBeforeTurn: fromTurn > 0 ? fromTurn : null, messages: items };
}

async function snapshotsPage(context: RequestContext, sessionId: string, url: URL): Promise<unknown> {
  const { offset, limit } = query(url, snapshotsQuery);
  const all = await context.store.snapshots(sessionId);
  const galaxy = context.bridge.galaxy;
  const snapshots = all
    .slice(offset, offset + limit)
    .map((snapshot) => ({ ...snapshot, at: galaxy.position(snapshot.systemId, snapshot.poiId) }));
  return { sessionId, total: all.length, offset, snapshots };
}

/** A page of the replay's steps (one per stored state change: replay.ts); `total` counts them all. */
async function replayPage(context: RequestContext, sessionId: string, url: URL): Promise<unknown> {
  const { offset, limit } = query(url, snapshotsQuery);
  const replay = await sessionReplay(context.store, sessionId, context.bridge.galaxy);
  return {
    sessionId,
    total: replay.steps.length,
    snapshots: replay.snapshots,
    points: replay.points,
    offset,
    steps: replay.steps.slice(offset, offset + limit),
  };
}

const orderBody = z.object({
  fleet: z.string().min(1).max(200),
  captain: z.string().min(1).max(200),
  command: z.enum(['stop', 'park', 'resume', 'order']),
  text: z.string().min(1).max(ORDER_MAX_CHARS).optional(),
});

async function postOrder(context: RequestContext, request: IncomingMessage): Promise<unknown> {
  const header = request.headers[TOKEN_HEADER];
  if (typeof header !== 'string' || !sameToken(header, context.token))
    throw new HttpError(403, `orders need the token in the ${TOKEN_HEADER} header (open the URL skipper web printed)`);
  const parsed = orderBody.safeParse(await readJson(request));
  if (!parsed.success)
    throw new HttpError(400, `bad order: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
  const order = parsed.data;
  if (order.command === 'order' && !order.text) throw new HttpError(400, 'bad order: an order needs its text');
  if (!(await context.store.fleets.captain(order.fleet, order.captain)))
    throw new HttpError(404, `no captain ${order.captain} in fleet ${order.fleet}`);
  return await context.store.fleets.addOrder({
    fleet: order.fleet,
    captain: order.captain,
    command: order.command,
    ...(order.text ? { text: order.text } : {}),
  });
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > WEB_BODY_MAX_BYTES) throw new HttpError(413, `an order is at most ${WEB_BODY_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the body must be JSON: {"fleet", "captain", "command", "text"}');
  }
}
