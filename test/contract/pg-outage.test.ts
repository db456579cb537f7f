// Outages survived (issue 46), on a real PostgreSQL: a connection cut mid-call (pg_terminate_backend on the store's
// application_name) and a database gone for a while (a proxy that drops every connection and refuses new ones).
// Calls that cannot reach the database reject with store_unavailable naming it without its password; health goes
// down once, listeners are told once, calls fail fast meanwhile, the store probes with backoff, comes back up by
// itself and works again; nothing it acknowledged is lost; no log line carries the password or a stack.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { SkipperError, type Logger } from '../../internal/shared/index.js';
import type { Store, StoreHealth } from '../../internal/store/contract.js';
import { openPgStore } from '../../internal/store/pg/store.js';
import { CuttableProxy } from './pg-fakes.js';
import { dropSchemas, freshSchemaUrl, pgSkipReason, testDatabaseUrl } from './pg-test-db.js';

const skipReason = pgSkipReason();
if (skipReason) console.warn(skipReason);
const password = 'hunter2-pg-secret';
const schemas: string[] = [];
const stores: Store[] = [];
const proxies: CuttableProxy[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const proxy of proxies.splice(0)) await proxy.close();
});
afterAll(() => dropSchemas(schemas));

/** Every line the store logged, as text. */
function recordingLogger(lines: string[]): Logger {
  const record =
    (level: string) =>
    (object: object, message?: string): void => {
      lines.push(`${level} ${message ?? ''} ${JSON.stringify(object)}`);
    };
  const logger: Logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => logger,
  };
  return logger;
}

/** The store's URL with a password in it (the test server trusts everyone: it is never checked, only carried). */
function urlWithPassword(port?: number): string {
  const { url, schema } = freshSchemaUrl();
  schemas.push(schema);
  const withPassword = new URL(url);
  withPassword.password = password;
  if (port !== undefined) {
    withPassword.hostname = '127.0.0.1';
    withPassword.port = String(port);
  }
  return withPassword.toString();
}

function healthLog(store: Store): StoreHealth[] {
  const seen: StoreHealth[] = [];
  store.onHealth((health) => seen.push(health));
  return seen;
}

function expectUnavailable(error: unknown): void {
  expect(error).toBeInstanceOf(SkipperError);
  expect(error).toMatchObject({ code: 'store_unavailable' });
  const message = (error as Error).message;
  expect(message).toContain(':***@');
  expect(message).not.toContain(password);
  expect(message).not.toContain('\n');
  expect(message).toMatch(/retries/);
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(skipReason !== undefined)('postgres store: outages', () => {
  it('a connection cut mid-call: the call rejects store_unavailable, health goes down then up, calls work again', async () => {
    const applicationName = `skipper-outage-${randomBytes(4).toString('hex')}`;
    const lines: string[] = [];
    const url = urlWithPassword();
    const store = await openPgStore({ url, applicationName, firstProbeMs: 100, logger: recordingLogger(lines) });
    stores.push(store);
    const seen = healthLog(store);
    const { id } = await store.createSession({ game: 'embedded', model: 'm' });
    const kept = await store.append(id, { role: 'user', content: 'before the cut' });
    const holder = { pid: 1, host: 'h', token: 't' };
    await store.takeLease('captain:f/ada', holder, { ttlMs: 60_000 });
    const schema = new URL(url).searchParams.get('schema') ?? '';
    await admin(async (locker) => {
      // Another connection holds the lease row: the store's take waits on it, in flight, when its connection is cut.
      await locker.query('BEGIN');
      await locker.query(`SELECT * FROM ${schema}.leases WHERE key = 'captain:f/ada' FOR UPDATE`);
      const inFlight = store.takeLease('captain:f/ada', { ...holder, token: 'u' }, { ttlMs: 60_000 });
      inFlight.catch(() => undefined);
      await vi.waitFor(
        async () => {
          const waiting = await locker.query(
            `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
            [applicationName],
          );
          expect(waiting.rowCount).toBe(1);
        },
        { timeout: 5_000, interval: 20 },
      );
      await locker.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ]);
      expectUnavailable(await inFlight.catch((error: unknown) => error));
      await locker.query('ROLLBACK');
    });
    expect(store.health()).toMatchObject({ state: 'down', since: expect.any(Number), error: expect.any(String) });
    await vi.waitFor(() => expect(store.health()).toEqual({ state: 'up' }), { timeout: 5_000, interval: 20 });
    expect(seen.map((health) => health.state)).toEqual(['down', 'up']);
    const after = await store.append(id, { role: 'user', content: 'after the cut' });
    expect((await store.messages(id)).map((message) => message.id)).toEqual([kept.id, after.id]);
    expect(lines.some((line) => /unreachable/.test(line))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(password);
      expect(line).not.toMatch(/\n\s+at /);
    }
  });

  it('connections killed while idle cost the process nothing: the next call opens another', async () => {
    const applicationName = `skipper-idle-${randomBytes(4).toString('hex')}`;
    const store = await openPgStore({ url: urlWithPassword(), applicationName });
    stores.push(store);
    const seen = healthLog(store);
    const { id } = await store.createSession({ game: 'embedded', model: 'm' });
    // Several connections in the pool, idle.
    await Promise.all(Array.from({ length: 5 }, () => store.messages(id)));
    await admin(async (client) => {
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ]);
      await vi.waitFor(
        async () => {
          const left = await client.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [
            applicationName,
          ]);
          expect(left.rowCount).toBe(0);
        },
        { timeout: 5_000, interval: 20 },
      );
    });
    // The pool has heard of every death (its 'error' event, listened to) before the next call picks a connection.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await store.append(id, { role: 'user', content: 'still here' })).content).toBe('still here');
    expect(store.health()).toEqual({ state: 'up' });
    expect(seen).toEqual([]);
  });

  it('a database gone for a while: calls fail fast, listeners are told once, it comes back by itself', async () => {
    const target = new URL(testDatabaseUrl ?? '');
    const proxy = await CuttableProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    proxies.push(proxy);
    const lines: string[] = [];
    const store = await openPgStore({
      url: urlWithPassword(proxy.port),
      firstProbeMs: 50,
      maxProbeMs: 200,
      logger: recordingLogger(lines),
    });
    stores.push(store);
    const seen = healthLog(store);
    const { id } = await store.createSession({ game: 'embedded', model: 'm' });
    await store.credentials.put('g', 'ada', 'game-pw');
    const kept = await store.append(id, { role: 'user', content: 'acknowledged before' });

    proxy.cutAll();
    expectUnavailable(await store.append(id, { role: 'user', content: 'lost' }).catch((error: unknown) => error));
    const down = store.health();
    expect(down.state).toBe('down');
    // While down, every call fails at once — no call waits on a connection timeout.
    const started = Date.now();
    for (const call of [
      () => store.messages(id),
      () => store.append(id, { role: 'user', content: 'also lost' }),
      () => store.takeLease('captain:f/ada', { pid: 1, host: 'h', token: 't' }, { ttlMs: 1000 }),
      () => store.fleets.takeOrders('f'),
    ]) {
      expectUnavailable(await call().catch((error: unknown) => error));
    }
    expect(Date.now() - started).toBeLessThan(500);
    // What the guard reads never waits and is still there.
    expect(store.credentials.passwordList()).toEqual(['game-pw']);
    expect(await store.integrityCheck()).not.toEqual(['ok']);
    // Several probes fail meanwhile (50, 100, 200, 200 ms…): still down since the first failure, told once.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(store.health()).toMatchObject({ state: 'down', since: down.state === 'down' ? down.since : 0 });
    expect(seen.map((health) => health.state)).toEqual(['down']);

    proxy.restore();
    await vi.waitFor(() => expect(store.health()).toEqual({ state: 'up' }), { timeout: 5_000, interval: 20 });
    expect(seen.map((health) => health.state)).toEqual(['down', 'up']);
    const after = await store.append(id, { role: 'user', content: 'after' });
    expect((await store.messages(id)).map((message) => message.id)).toEqual([kept.id, after.id]);
    for (const line of lines) expect(line).not.toContain(password);
  });
});
