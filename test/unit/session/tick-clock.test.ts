// The tick clock: the game's own tick where Skipper can read it (embedded, a `skipper serve`'s /health), else an
// estimate from SpaceMolt's 10 s tick length — and which one it is, so figures can be labelled.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SPACEMOLT_TICK_MS, estimatedClock, httpClock, serverClock } from '../../../internal/session/index.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(health: () => unknown): Promise<string> {
  server = createServer((req, res) => {
    if (req.url !== '/health') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(health()));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/mcp/v2?preset=standard`;
}

describe('tick clock', () => {
  it('reads an in-process game directly', () => {
    let tick = 5;
    const clock = serverClock(() => tick);
    tick = 9;
    expect(clock.source).toBe('server');
    expect(clock.now()).toBe(9);
  });

  it('estimates from the tick length where the game says nothing', () => {
    let now = 1_000_000;
    const clock = estimatedClock(SPACEMOLT_TICK_MS, () => now);
    expect(clock.now()).toBe(0);
    now += 35_000;
    expect(clock.now()).toBe(3);
    expect(clock.source).toBe('estimated');
  });

  it('follows a minimolt server’s /health tick, refreshed on demand', async () => {
    let tick = 40;
    const clock = await httpClock(await serve(() => ({ status: 'ok', tick })));
    expect(clock.source).toBe('server');
    expect(clock.now()).toBe(40);
    tick = 47;
    expect(clock.now()).toBe(40); // no request until asked
    await clock.refresh();
    expect(clock.now()).toBe(47);
  });

  it('serves captains asking at once with one read, and a fresh read within a fiftieth of a tick with none', async () => {
    let tick = 10;
    let reads = 0;
    let now = 1_000;
    const url = await serve(() => {
      reads += 1;
      return { status: 'ok', tick, tick_ms: 1000 };
    });
    const clock = await httpClock(url, { now: () => now });
    expect(reads).toBe(1);
    tick = 11;
    now += 100;
    await Promise.all(Array.from({ length: 20 }, () => clock.refresh()));
    expect(reads).toBe(2);
    expect(clock.now()).toBe(11);
    tick = 12;
    now += 10; // within 20 ms of the last read: it stands
    await clock.refresh();
    expect(reads).toBe(2);
    now += 15; // 25 ms since: read again
    await clock.refresh();
    expect([reads, clock.now()]).toEqual([3, 12]);
  });

  it('reads nothing before the tick the server says is next is due (less a twentieth of a tick), then as before', async () => {
    let tick = 10;
    let reads = 0;
    let now = 1_000;
    let nextTickMs: unknown = 600;
    const url = await serve(() => {
      reads += 1;
      return { status: 'ok', tick, tick_ms: 1000, next_tick_ms: nextTickMs };
    });
    const clock = await httpClock(url, { now: () => now });
    // Sent at 1,000: the next tick is due at 1,600 at the soonest; reads resume 50 ms before.
    for (const at of [1_100, 1_300, 1_549]) {
      now = at;
      await clock.refresh();
    }
    expect([reads, clock.now()]).toEqual([1, 10]);
    now = 1_550;
    nextTickMs = 0; // due now, but late
    await clock.refresh();
    now = 1_600;
    tick = 11;
    nextTickMs = 1000;
    await clock.refresh();
    expect([reads, clock.now()]).toEqual([3, 11]);
    now = 2_549; // next due at 2,600
    await clock.refresh();
    expect(reads).toBe(3);
    nextTickMs = 'soon'; // a server that does not say: every read again, within a fiftieth of a tick
    now = 2_550;
    await clock.refresh();
    now = 2_580;
    await clock.refresh();
    expect(reads).toBe(5);
  });

  it('returns at once when the caller gives up, the shared read going on for the others', async () => {
    let tick = 1;
    let release: () => void = () => undefined;
    let calls = 0;
    const url = await serve(() => ({ status: 'ok', tick }));
    const clock = await httpClock(url, {
      fetch: async (input, init) => {
        calls += 1;
        if (calls > 1) await new Promise<void>((done) => (release = done));
        return fetch(input, init);
      },
    });
    tick = 2;
    const controller = new AbortController();
    const mine = clock.refresh(controller.signal);
    const theirs = clock.refresh();
    await new Promise((done) => setImmediate(done));
    controller.abort();
    await mine;
    expect(clock.now()).toBe(1);
    release();
    await theirs;
    expect([calls, clock.now()]).toEqual([2, 2]);
  });

  it('knows the tick length when /health says it (tick_ms), and only then', async () => {
    expect((await httpClock(await serve(() => ({ status: 'ok', tick: 1, tick_ms: 0 })))).tickMs).toBe(0);
    expect((await httpClock(await serve(() => ({ status: 'ok', tick: 1, tick_ms: 500 })))).tickMs).toBe(500);
    expect((await httpClock(await serve(() => ({ status: 'ok', tick: 1, tick_ms: 'fast' })))).tickMs).toBeUndefined();
    expect((await httpClock(await serve(() => ({ status: 'ok', tick: 1 })))).tickMs).toBeUndefined();
    expect(serverClock(() => 3, 250).tickMs).toBe(250);
  });

  it('follows a redirected /health, and takes a body that is not JSON for no tick', async () => {
    let body = JSON.stringify({ status: 'ok', tick: 7, tick_ms: 250 });
    server = createServer((req, res) => {
      if (req.url === '/health') res.writeHead(302, { location: '/status/health' }).end();
      else if (req.url === '/status/health') res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const clock = await httpClock(url);
    expect([clock.source, clock.now(), clock.tickMs]).toEqual(['server', 7, 250]);
    body = '<html>maintenance</html>';
    expect((await httpClock(url)).source).toBe('estimated');
  });

  it('falls back to an estimate on a server whose /health has no tick (real SpaceMolt) or no /health at all', async () => {
    expect((await httpClock(await serve(() => ({ status: 'ok' })))).source).toBe('estimated');
    expect((await httpClock('http://127.0.0.1:9/mcp')).source).toBe('estimated');
  });
  it('asks a busy server again with backoff when its first /health read fails, and follows its tick', async () => {
    let reads = 0;
    const waits: number[] = [];
    server = createServer((req, res) => {
      reads += 1;
      if (reads <= 3) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tick: 30, tick_ms: 1000 }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const clock = await httpClock(url, { sleep: async (ms) => void waits.push(ms) });
    expect([clock.source, clock.now(), clock.tickMs, reads]).toEqual(['server', 30, 1000, 4]);
    expect(waits).toEqual([250, 500, 1000]);
  });

  it('leaves the tick unknown (not a 10 s guess) while the server stays silent, and reads it once it answers', async () => {
    let healthy = false;
    let tick = 500;
    let reads = 0;
    let now = 0;
    server = createServer((req, res) => {
      reads += 1;
      if (!healthy) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tick, tick_ms: 1000 }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const clock = await httpClock(url, { now: () => now, sleep: async () => undefined });
    expect([clock.source, clock.now(), reads]).toEqual(['server', undefined, 5]);
    now += 1_000; // asked again no more than every 2 s
    await clock.refresh();
    expect(reads).toBe(5);
    now += 1_000;
    await clock.refresh();
    expect([reads, clock.now()]).toEqual([6, undefined]);
    healthy = true;
    now += 2_000;
    await clock.refresh();
    expect([clock.source, clock.now(), clock.tickMs]).toEqual(['server', 500, 1000]);
    tick = 501;
    now += 1_000;
    await clock.refresh();
    expect(clock.now()).toBe(501);
  });

  it('estimates only after the server stayed silent for the whole patience', async () => {
    let now = 0;
    server = createServer((req, res) => res.writeHead(503).end('busy'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const clock = await httpClock(url, {
      now: () => now,
      sleep: async () => undefined,
      retry: { attempts: 2, patienceMs: 60_000 },
    });
    now = 59_000;
    await clock.refresh();
    expect([clock.source, clock.now()]).toEqual(['server', undefined]);
    now = 61_000;
    await clock.refresh();
    expect(clock.source).toBe('estimated');
    now = 61_000 + 3 * SPACEMOLT_TICK_MS;
    expect(clock.now()).toBe(3);
  });
  it('waits for the tick at a run’s start (untilKnown) while the server is silent, and ends the wait on abort', async () => {
    let reads = 0;
    server = createServer((req, res) => {
      reads += 1;
      if (reads <= 4) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tick: 77 }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const waits: number[] = [];
    const clock = await httpClock(url, { retry: { attempts: 2 }, sleep: async (ms) => void waits.push(ms) });
    expect(clock.now()).toBeUndefined();
    await clock.refresh(undefined, { untilKnown: true });
    expect([clock.now(), reads]).toEqual([77, 5]);
    expect(waits).toEqual([250, 2_000, 2_000]);

    const silent = await httpClock(url, {
      fetch: async () => ({ ok: false, status: 503, json: async () => ({}) }),
      retry: { attempts: 1 },
    });
    const controller = new AbortController();
    const waiting = silent.refresh(controller.signal, { untilKnown: true });
    controller.abort();
    await waiting;
    expect(silent.now()).toBeUndefined();
  });
});
