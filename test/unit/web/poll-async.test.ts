// The bridge over the asynchronous store: one poll reads at a time (a poll asked for meanwhile, by a test or the
// timer, waits or is skipped, never interleaves), and a store call that rejects (a busy database, PostgreSQL gone)
// becomes a logged, reported line and a JSON error — never an unhandled rejection or a stopped server.
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger, type Logger } from '../../../internal/shared/index.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { Bridge } from '../../../internal/web/bridge.js';
import { EventHub } from '../../../internal/web/events.js';
import { startWebServer, type WebServer } from '../../../internal/web/index.js';

const stores: Store[] = [];
const servers: WebServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const store of stores.splice(0)) await store.close();
});

async function memoryStore(): Promise<Store> {
  const store = await openStore({ path: ':memory:' });
  stores.push(store);
  await store.createSession({ name: 'ada', game: 'embedded', model: 'builtin/autopilot' });
  return store;
}

/** Wraps listSessions so that each call waits a little and the most calls reading at once are counted. */
function countOverlap(store: Store, delayMs = 20): { most: () => number; calls: () => number } {
  const list = store.listSessions.bind(store);
  let reading = 0;
  let most = 0;
  let calls = 0;
  store.listSessions = async () => {
    reading += 1;
    calls += 1;
    most = Math.max(most, reading);
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return await list();
    } finally {
      reading -= 1;
    }
  };
  return { most: () => most, calls: () => calls };
}

function getJson(url: string): Promise<{ status: number; json: { error?: string } }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: Number(target.port), path: target.pathname, headers: { host: target.host } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(body) as { error?: string } }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the bridge polls one at a time', () => {
  it('a poll asked for while one reads starts after it, and both see the store', async () => {
    const store = await memoryStore();
    const overlap = countOverlap(store);
    const bridge = new Bridge(store);
    const [first, second] = await Promise.all([bridge.poll(), bridge.poll()]);
    expect(overlap.most()).toBe(1);
    expect(overlap.calls()).toBe(2);
    expect(first.filter((change) => change.type === 'captain')).toHaveLength(1);
    expect(second).toEqual([]);
  });

  it("the hub's timer skips a tick while the last poll still reads", async () => {
    const store = await memoryStore();
    const overlap = countOverlap(store, 60);
    const hub = new EventHub(new Bridge(store), { pollMs: 5 });
    hub.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await hub.stop();
    expect(overlap.most()).toBe(1);
    // About 200 / 60 polls, not 200 / 5.
    expect(overlap.calls()).toBeGreaterThan(0);
    expect(overlap.calls()).toBeLessThanOrEqual(5);
  });
});

describe('a store that rejects', () => {
  it('makes a poll resolve to no change, logged every time, reported once until it works again', async () => {
    const store = await memoryStore();
    const list = store.listSessions.bind(store);
    let down = true;
    store.listSessions = () =>
      down ? Promise.reject(new Error('the database at db.example is unreachable\n    at somewhere')) : list();
    const warn = vi.fn();
    const logger: Logger = { ...silentLogger, warn };
    const lines: string[] = [];
    const hub = new EventHub(new Bridge(store), { logger, report: (line) => lines.push(line) });
    expect(await hub.tick()).toEqual([]);
    expect(await hub.tick()).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(lines).toEqual(['web: reading the store failed: the database at db.example is unreachable; retrying']);
    down = false;
    const changes = await hub.tick();
    expect(changes.some((change) => change.type === 'captain')).toBe(true);
    expect(lines.at(-1)).toBe('web: reading the store works again');
    expect(lines).toHaveLength(2);
  });

  it('answers a request whose store read rejects with JSON (503 when the database is unreachable), and goes on', async () => {
    const store = await memoryStore();
    const server = await startWebServer({ store, port: 0, pollMs: 60_000 });
    servers.push(server);
    const listFleets = store.fleets.listFleets.bind(store.fleets);
    const unavailable = Object.assign(new Error('store_unavailable: cannot reach postgres://db.example/skipper'), {
      code: 'store_unavailable',
    });
    store.fleets.listFleets = () => Promise.reject(unavailable);
    const down = await getJson(`${server.url}api/state`);
    expect(down.status).toBe(503);
    expect(down.json.error).toMatch(/cannot reach postgres/);
    store.fleets.listFleets = () => Promise.reject(new Error('disk I/O error'));
    expect((await getJson(`${server.url}api/state`)).status).toBe(500);
    store.fleets.listFleets = listFleets;
    expect((await getJson(`${server.url}api/state`)).status).toBe(200);
  });
});
