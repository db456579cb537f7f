// The bridge's limits on what comes in (issue 48): a malformed URL escape is 400, a body over WEB_BODY_MAX_BYTES is
// 413, an order's text over ORDER_MAX_CHARS is 400, a slow body is cut (408 or a closed socket) once the request time
// runs out, one event stream past WEB_EVENT_STREAMS_MAX is 503 with Retry-After; and bound to a wildcard address the
// bridge answers on the machine's own (non-loopback) address, with the token, as it does on loopback.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_MAX_CHARS, WEB_BODY_MAX_BYTES, WEB_EVENT_STREAMS_MAX } from '../../../internal/shared/index.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { startWebServer, type WebServer } from '../../../internal/web/index.js';

const TOKEN = 'a-token-of-twenty-chars';
const dir = mkdtempSync(join(tmpdir(), 'skipper-web-limits-'));
let store: Store;

beforeAll(async () => {
  store = await openStore({ path: join(dir, 'skipper.db') });
  await store.createSession({ name: 'nova', game: 'embedded', model: 'builtin/autopilot' });
  await store.fleets.startFleet({ name: 'f1', file: '/tmp/f1.yaml', pid: process.pid, host: 'here' });
  await store.fleets.upsertCaptain('f1', 'nova', { sessionName: 'nova', model: 'builtin/autopilot', state: 'playing' });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const servers: WebServer[] = [];
const open: ClientRequest[] = [];
afterEach(async () => {
  for (const req of open.splice(0)) req.destroy();
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: { host?: string; requestTimeoutMs?: number } = {}): Promise<WebServer> {
  const server = await startWebServer({ store, port: 0, token: TOKEN, pollMs: 60_000, ...options });
  servers.push(server);
  return server;
}

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  json: { error?: string } | undefined;
}

function call(
  server: WebServer,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; address?: string } = {},
): Promise<Reply> {
  const port = Number(new URL(server.url).port);
  const address = options.address ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: address,
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `${address}:${port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          let json: Reply['json'];
          try {
            json = JSON.parse(body) as Reply['json'];
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const withToken = { 'x-skipper-token': TOKEN, 'content-type': 'application/json' };

describe('skipper web: limits on what comes in', () => {
  it('answers a malformed URL escape with 400, not 500', async () => {
    const server = await start();
    const reply = await call(server, '/api/sessions/%E0%A4%A/messages');
    expect(reply.status).toBe(400);
    expect(reply.json?.error).toMatch(/bad escape/);
    expect((await call(server, '/api/sessions/nova/messages')).status).toBe(200);
  });

  it(`answers a body over ${WEB_BODY_MAX_BYTES} bytes with 413 and an order's text over ${ORDER_MAX_CHARS} characters with 400`, async () => {
    const server = await start();
    const order = (text: string): string => JSON.stringify({ fleet: 'f1', captain: 'nova', command: 'order', text });
    const big = await call(server, '/api/orders', {
      method: 'POST',
      headers: withToken,
      body: order('x'.repeat(WEB_BODY_MAX_BYTES)),
    });
    expect(big.status).toBe(413);
    expect(big.json?.error).toMatch(/at most 16384 bytes/);
    const long = await call(server, '/api/orders', {
      method: 'POST',
      headers: withToken,
      body: order('y'.repeat(ORDER_MAX_CHARS + 1)),
    });
    expect(long.status).toBe(400);
    expect(long.json?.error).toMatch(/bad order: text/);
    const fits = await call(server, '/api/orders', {
      method: 'POST',
      headers: withToken,
      body: order('z'.repeat(ORDER_MAX_CHARS)),
    });
    expect(fits.status).toBe(201);
    await store.fleets.takeOrders('f1');
  });

  it('cuts a slow body (headers, then a trickle) once the request time runs out', async () => {
    const server = await start({ requestTimeoutMs: 1000 });
    const port = Number(new URL(server.url).port);
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    const started = Date.now();
    socket.write(
      `POST /api/orders HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-skipper-token: ${TOKEN}\r\n` +
        'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{',
    );
    // A byte every 200 ms would take 200 s to send the body; the server stops waiting long before.
    let sent = 1;
    const trickle = setInterval(() => {
      socket.write(' ');
      sent += 1;
    }, 200);
    const at = await closed;
    clearInterval(trickle);
    expect(at - started).toBeGreaterThanOrEqual(900);
    // Cut while the body was still arriving: far fewer than its 1,000 bytes were sent (no wall-clock bound).
    expect(sent).toBeLessThan(1000);
    if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it(`serves ${WEB_EVENT_STREAMS_MAX} event streams; one more is 503 with Retry-After`, async () => {
    const server = await start();
    const port = Number(new URL(server.url).port);
    const opened = await Promise.all(
      Array.from(
        { length: WEB_EVENT_STREAMS_MAX },
        () =>
          new Promise<number>((resolve, reject) => {
            const req = request({ host: '127.0.0.1', port, path: '/api/events' }, (response) =>
              resolve(response.statusCode ?? 0),
            );
            req.on('error', reject);
            req.end();
            open.push(req);
          }),
      ),
    );
    expect(opened.every((status) => status === 200)).toBe(true);
    expect(server.hub.clientCount).toBe(WEB_EVENT_STREAMS_MAX);
    const refused = await call(server, '/api/events');
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json?.error).toMatch(/event streams are open already/);
    // One closed, one more may open.
    open.pop()?.destroy();
    await expect.poll(() => server.hub.clientCount).toBe(WEB_EVENT_STREAMS_MAX - 1);
    const again = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/events' }, (response) =>
        resolve(response.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end();
      open.push(req);
    });
    expect(again).toBe(200);
  });
});

/** A non-loopback IPv4 address of this machine, if it has one. */
function lanAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces()))
    for (const entry of addresses ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  return undefined;
}

describe('skipper web on a LAN', () => {
  const address = lanAddress();
  it.skipIf(address === undefined)(
    'bound to 0.0.0.0, answers on the machine’s own address: 200 with the token, 403 without (skipped: this machine has no non-loopback IPv4 address)',
    async () => {
      const server = await start({ host: '0.0.0.0' });
      const lan = address as string;
      expect((await call(server, `/api/state?token=${TOKEN}`, { address: lan })).status).toBe(200);
      expect((await call(server, '/api/state', { address: lan, headers: { 'x-skipper-token': TOKEN } })).status).toBe(
        200,
      );
      const without = await call(server, '/api/state', { address: lan });
      expect(without.status).toBe(403);
      expect(without.json?.error).toMatch(/needs its token/);
      // Another name for it is still refused (DNS rebinding), token or not.
      const port = new URL(server.url).port;
      const rebound = await call(server, `/api/state?token=${TOKEN}`, {
        address: lan,
        headers: { host: `evil.example:${port}` },
      });
      expect(rebound.status).toBe(403);
    },
  );

  it('bound to a wildcard, a machine address names it; bound to loopback, it does not', async () => {
    const wildcard = await start({ host: '0.0.0.0' });
    const loopback = await start();
    const name = address ?? '127.0.0.1';
    const port = (server: WebServer): string => new URL(server.url).port;
    // Through loopback, with the machine's address in the Host header: what a LAN client's request looks like.
    const viaWildcard = await call(wildcard, `/api/state?token=${TOKEN}`, {
      headers: { host: `${name}:${port(wildcard)}` },
    });
    expect(viaWildcard.status).toBe(200);
    if (address !== undefined) {
      const viaLoopback = await call(loopback, '/api/state', { headers: { host: `${name}:${port(loopback)}` } });
      expect(viaLoopback.status).toBe(403);
    }
  });
});
