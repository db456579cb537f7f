// The bridge's HTTP server on a real SQLite file: the Host and token guards (403s), orders behind the token, paged
// transcripts and snapshots, 400 JSON for bad query parameters, and a message appended to the store reaching an
// open event stream.
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../internal/store/index.js';
import { startWebServer, type WebServer } from '../../../internal/web/index.js';

const dir = mkdtempSync(join(tmpdir(), 'skipper-web-'));
let store: Store;
let sessionId: string;
const TURNS = 30;

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  json: any;
}

function call(
  server: WebServer,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; host?: string } = {},
): Promise<Reply> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(url.port),
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? url.host, ...options.headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

async function fill(target: Store): Promise<string> {
  const session = await target.createSession({ name: 'nova', game: 'embedded', model: 'builtin/autopilot' });
  for (let turn = 1; turn <= TURNS; turn++) {
    await target.append(session.id, {
      role: 'assistant',
      content: `turn ${turn}`,
      toolCalls: [{ id: `c${turn}`, name: turn === 1 ? 'get_map' : 'travel', arguments: '{"target_poi":"sol_belt"}' }],
      turn,
    });
    await target.append(session.id, {
      role: 'tool',
      content: turn === 1 ? 'map' : 'arrived',
      toolCallId: `c${turn}`,
      toolName: turn === 1 ? 'get_map' : 'travel',
      ...(turn === 1
        ? {
            data: {
              op: 'get_map',
              details: {
                systems: [
                  { id: 'sol', name: 'Sol', connections: ['alpha'], has_station: true },
                  { id: 'alpha', name: 'Alpha', connections: ['sol'] },
                ],
              },
            },
          }
        : {}),
      turn,
    });
    await target.recordSnapshot({
      sessionId: session.id,
      turn,
      tick: turn * 3,
      credits: 100 + turn,
      netWorth: 200 + turn,
      fuel: 50,
      maxFuel: 100,
      cargoUsed: 0,
      cargoCapacity: 50,
      hull: 100,
      maxHull: 100,
      systemId: turn % 2 ? 'sol' : 'alpha',
      poiId: null,
      docked: false,
    });
  }
  return session.id;
}

beforeAll(async () => {
  store = await openStore({ path: join(dir, 'skipper.db') });
  sessionId = await fill(store);
  await store.fleets.startFleet({ name: 'f1', file: '/tmp/f1.yaml', pid: process.pid, host: 'here' });
  await store.fleets.upsertCaptain('f1', 'nova', {
    sessionName: 'nova',
    model: 'builtin/autopilot',
    state: 'playing',
  });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const servers: WebServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: { host?: string } = {}): Promise<WebServer> {
  const server = await startWebServer({ store, port: 0, token: 'a-token-of-twenty-chars', pollMs: 60_000, ...options });
  servers.push(server);
  return server;
}

describe('skipper web: guards', () => {
  it('serves the page and the state on loopback without a token', async () => {
    const server = await start();
    const page = await call(server, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const state = await call(server, '/api/state');
    expect(state.status).toBe(200);
    expect(state.json.captains).toHaveLength(1);
    expect(state.json.captains[0]).toMatchObject({ name: 'nova', last_action: 'travel Sol Belt' });
    expect(state.json.captains[0].fleet).toMatchObject({ fleet: 'f1', name: 'nova', state: 'playing' });
    expect(state.json.galaxy.systems.map((system: { id: string }) => system.id).sort()).toEqual(['alpha', 'sol']);
  });

  it('refuses a Host header that does not name it (DNS rebinding) with 403 JSON', async () => {
    const server = await start();
    const port = new URL(server.url).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1:${Number(port) + 1}`, `127.0.0.1.evil.example:${port}`]) {
      const reply = await call(server, '/api/state', { host });
      expect(reply.status, host).toBe(403);
      expect(reply.json.error).toMatch(/not this bridge/);
    }
    expect((await call(server, '/api/state', { host: `localhost:${port}` })).status).toBe(200);
  });

  it('off loopback, wants the token on every request; ?token= sets a cookie the page then uses', async () => {
    const server = await start({ host: '0.0.0.0' });
    const port = new URL(server.url).port;
    const host = `127.0.0.1:${port}`;
    expect((await call(server, '/', { host })).status).toBe(403);
    expect(
      (await call(server, '/api/state', { host, headers: { 'x-skipper-token': 'wrong-token-of-twenty-c' } })).status,
    ).toBe(403);
    const opened = await call(server, '/?token=a-token-of-twenty-chars', { host });
    expect(opened.status).toBe(200);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toMatch(/^skipper_token=/);
    expect((await call(server, '/api/state', { host, headers: { cookie } })).status).toBe(200);
  });

  it('takes an order only with the token in its header, checked, and files it for the fleet', async () => {
    const server = await start();
    const order = JSON.stringify({ fleet: 'f1', captain: 'nova', command: 'order', text: 'sell everything' });
    const post = (headers: Record<string, string>, body = order): Promise<Reply> =>
      call(server, '/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    expect((await post({})).status).toBe(403);
    expect((await post({ 'x-skipper-token': 'a-token-of-twenty-charz' })).status).toBe(403);
    // The cookie is not enough for a write: a cross-site form would send it.
    expect((await post({ cookie: 'skipper_token=a-token-of-twenty-chars' })).status).toBe(403);
    const token = { 'x-skipper-token': 'a-token-of-twenty-chars' };
    expect((await post(token, '{not json')).json.error).toMatch(/must be JSON/);
    expect((await post(token, JSON.stringify({ fleet: 'f1', captain: 'nova', command: 'fly' }))).status).toBe(400);
    expect((await post(token, JSON.stringify({ fleet: 'f1', captain: 'nova', command: 'order' }))).status).toBe(400);
    expect((await post(token, JSON.stringify({ fleet: 'f1', captain: 'ghost', command: 'park' }))).status).toBe(404);
    const filed = await post(token);
    expect(filed.status).toBe(201);
    expect(await store.fleets.takeOrders('f1')).toEqual([
      expect.objectContaining({ captain: 'nova', command: 'order', text: 'sell everything' }),
    ]);
  });
});

describe('skipper web: paged reads', () => {
  it('pages a transcript by whole turns, newest first, back to the start without a gap or a repeat', async () => {
    const server = await start();
    const seen: string[] = [];
    let query = '?turns=7';
    for (let pages = 0; pages < 10; pages++) {
      const page = await call(server, `/api/sessions/${sessionId}/messages${query}`);
      expect(page.status).toBe(200);
      expect(page.json.messages.length).toBeLessThanOrEqual(14);
      seen.unshift(...page.json.messages.map((message: { id: string }) => message.id));
      if (page.json.next_before_turn === null) break;
      query = `?turns=7&before_turn=${page.json.next_before_turn}`;
    }
    expect(seen).toEqual((await store.messages(sessionId)).map((message) => message.id));
    const byName = await call(server, '/api/sessions/nova/messages?turns=1');
    expect(byName.json.messages.map((message: { text: string }) => message.text)).toEqual([`turn ${TURNS}`, 'arrived']);
  });

  it('pages snapshots with the map position of each', async () => {
    const server = await start();
    const page = await call(server, `/api/sessions/${sessionId}/snapshots?offset=10&limit=5`);
    expect(page.json.total).toBe(TURNS);
    expect(page.json.snapshots.map((snapshot: { turn: number }) => snapshot.turn)).toEqual([11, 12, 13, 14, 15]);
    expect(page.json.snapshots[0].at).toEqual({ x: expect.any(Number), y: expect.any(Number) });
    expect(page.json.snapshots[0].at).not.toEqual(page.json.snapshots[1].at);
  });

  it.each([
    ['/api/sessions/nova/messages?turns=0', /turns/],
    ['/api/sessions/nova/messages?turns=abc', /turns/],
    ['/api/sessions/nova/messages?turns=51', /turns/],
    ['/api/sessions/nova/messages?before_turn=-1', /before_turn/],
    ['/api/sessions/nova/snapshots?limit=0', /limit/],
    ['/api/sessions/nova/snapshots?offset=1.5', /offset/],
    ['/api/events?session=', /session/],
    ['/api/trails?window=2h', /window/],
    ['/api/trails', /window/],
  ])('answers %s with 400 JSON that names the parameter', async (path, named) => {
    const server = await start();
    const reply = await call(server, path);
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/application\/json/);
    expect(reply.json.error).toMatch(named);
  });

  it('answers an unknown session and an unknown path with 404 JSON', async () => {
    const server = await start();
    expect((await call(server, '/api/sessions/ghost/messages')).json.error).toMatch(/no session "ghost"/);
    expect((await call(server, '/nope')).status).toBe(404);
  });

  it('answers a system with what the fleet knows of it, snake_case, and an unknown one with 404 JSON', async () => {
    const server = await start();
    await store.fleets.putKnowledge({
      fleet: 'f1',
      kind: 'market',
      key: 'sol_station',
      value: { poiId: 'sol_station', systemId: 'sol', name: 'Sol Station', bids: { iron_ore: 42 }, noBuyers: [] },
      captain: 'nova',
      at: Date.now() - 120_000,
    });
    const sol = await call(server, '/api/systems/sol');
    expect(sol.status).toBe(200);
    expect(sol.json.name).toBe('Sol');
    expect(sol.json.police_level).toBeNull();
    expect(sol.json.markets).toHaveLength(1);
    expect(sol.json.markets[0].bids).toEqual([{ item_id: 'iron_ore', name: 'Iron Ore', bid: 42 }]);
    expect(sol.json.markets[0].age_ms).toBeGreaterThanOrEqual(120_000);
    // The last snapshot (turn 30) put nova in alpha.
    expect((await call(server, '/api/systems/alpha')).json.captains.map((c: { name: string }) => c.name)).toEqual([
      'nova',
    ]);
    expect((await call(server, '/api/systems/alpha')).json.markets).toEqual([]);
    const ghost = await call(server, '/api/systems/nowhere');
    expect(ghost.status).toBe(404);
    expect(ghost.json.error).toMatch(/no system "nowhere"/);
  });

  it("answers a trail window with each captain's places in it", async () => {
    const server = await start();
    const week = await call(server, '/api/trails?window=7d');
    expect(week.json.window).toBe('7d');
    const nova = week.json.captains.find((captain: { name: string }) => captain.name === 'nova');
    // Thirty snapshots alternating between two systems: thirty places.
    expect(nova.points).toHaveLength(TURNS);
    expect(nova.points[0]).toEqual({ system_id: 'sol', poi_id: null, tick: 3, at: expect.any(Number) });
  });
});

describe('skipper web: live', () => {
  it('sends a message appended to the store to the stream watching its session', async () => {
    const server = await start();
    const url = new URL(`/api/events?session=${sessionId}`, server.url);
    const received = new Promise<string>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: Number(url.port), path: url.pathname + url.search },
        (response) => {
          expect(response.headers['content-type']).toMatch(/text\/event-stream/);
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
            if (text.includes('live-probe') && text.includes('event: captain')) {
              resolve(text);
              req.destroy();
            }
          });
          response.once('data', () => {
            store
              .append(sessionId, { role: 'assistant', content: 'live-probe', toolCalls: [], turn: TURNS })
              .then(() => server.hub.tick())
              .catch(reject);
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    const text = await received;
    expect(text).toMatch(/event: message\ndata: .*"session_id":"[^"]+".*"text":"live-probe"/);
    expect(text).toMatch(/event: captain\n/);
  });
});
