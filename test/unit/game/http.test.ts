// The connection over real Streamable HTTP against the fake game: restart on the same port, HTTP 429. Waits run
// on a fake clock (recorded, instant): the network is real, the backoff and Retry-After waits are not.
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectGame,
  RECONNECT_NOTICE,
  RECONNECT_ONLY_NOTICE,
  type GameConnection,
} from '../../../internal/game/index.js';
import type { ConnectionEvent } from '../../../internal/shared/index.js';
import { fakeClock, type FakeClock } from './fake-clock.js';
import { listenHttp, type HttpGame } from '../../fakes/fake-spacemolt-http.js';
import { createWorld, statusText } from '../../fakes/fake-spacemolt-server.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function serve(world = createWorld(), port = 0): Promise<HttpGame> {
  const server = await listenHttp(world, port);
  cleanup.push(() => server.close());
  return server;
}

async function connectTo(
  url: string,
  events: ConnectionEvent[] = [],
  credentials = memoryCredentials(),
  clock: FakeClock = fakeClock(),
): Promise<GameConnection> {
  const game = await connectGame({ target: { kind: 'http', url }, credentials, retry: { backoffMs: 20 }, clock });
  game.onEvent((event) => events.push(event));
  cleanup.push(() => game.close());
  return game;
}

describe('over HTTP', () => {
  it('reconnects after a server restart, logs back in and retries the call with a one-line notice', async () => {
    const world = createWorld();
    const first = await serve(world);
    const events: ConnectionEvent[] = [];
    const game = await connectTo(first.url, events);
    await game.call('register', { username: 'nova', empire: 'solarian' });
    await first.close();
    await serve(world, first.port);

    const result = await game.call('get_status', {});
    expect(result.isError).toBe(false);
    expect(result.text).toBe(`${RECONNECT_NOTICE}\n${statusText('nova')}`);
    expect(game.stats().reconnects).toBe(1);
    const kinds = events.map((event) => event.type).slice(1); // [0] is register's logged-in
    // A restart can leave a stale pooled socket, so the first attempt may fail; it must end connected + logged in.
    expect(kinds[0]).toBe('reconnecting');
    expect(kinds.slice(-2)).toEqual(['connected', 'logged-in']);
    expect(kinds.filter((kind) => kind === 'reconnecting').length).toBeLessThanOrEqual(2);
    expect(world.calls.filter((call) => call.tool === 'login')).toHaveLength(1);
    // and the next call is plain again
    expect((await game.call('get_status', {})).text).toBe(statusText('nova'));
  });

  it('parallel calls that all lose the session share one reconnect and one login', async () => {
    const world = createWorld();
    const first = await serve(world);
    const game = await connectTo(first.url);
    await game.call('register', { username: 'nova', empire: 'solarian' });
    await first.close();
    await serve(world, first.port);
    const results = await Promise.all(Array.from({ length: 6 }, () => game.call('get_status', {})));
    for (const result of results) expect(result.isError).toBe(false);
    expect(game.stats().reconnects).toBe(1);
    expect(world.calls.filter((call) => call.tool === 'login')).toHaveLength(1);
  });

  it('a restart before any login: the notice does not claim a login', async () => {
    const world = createWorld();
    const first = await serve(world);
    const game = await connectTo(first.url);
    await first.close();
    await serve(world, first.port);
    const result = await game.call('get_status', {});
    expect(result.text).toBe(`${RECONNECT_ONLY_NOTICE}\nError: not_authenticated: log in first`);
  });

  it('reports a server that stays down after bounded reconnect attempts', async () => {
    const server = await serve();
    const events: ConnectionEvent[] = [];
    const clock = fakeClock();
    const game = await connectTo(server.url, events, memoryCredentials(), clock);
    await server.close();
    const result = await game.call('get_status', {});
    expect(result.code).toBe('disconnected');
    expect(result.text).toMatch(/could not reconnect after 7 attempts/);
    expect(events.filter((event) => event.type === 'reconnecting')).toHaveLength(7);
    // Between the 7 attempts: a quick first retry (a stale pooled socket), then doubling from backoffMs.
    expect(clock.waits).toEqual([20, 20, 40, 80, 160, 320]);
  });

  it('a restarted server that no longer knows the account: one reconnect and a clear not_authenticated', async () => {
    const first = await serve(createWorld());
    const events: ConnectionEvent[] = [];
    const game = await connectTo(first.url, events);
    await game.call('register', { username: 'nova', empire: 'solarian' });
    await first.close();
    await serve(createWorld(), first.port); // a wiped world
    const result = await game.call('get_status', {});
    expect(result.code).toBe('not_authenticated');
    expect(result.text).toMatch(/reconnected, but logging back in as nova failed: Error: invalid_credentials/);
    expect(game.stats().reconnects).toBe(1);
    // connected and usable: the model can register again
    expect((await game.call('register', { username: 'nova2', empire: 'solarian' })).isError).toBe(false);
  });

  it('waits out HTTP 429 honouring Retry-After', async () => {
    const world = createWorld({ retryAfter: 1 });
    const server = await serve(world);
    const events: ConnectionEvent[] = [];
    const callsAtWait: number[] = [];
    const clock = fakeClock({ onSleep: () => callsAtWait.push(world.calls.length) });
    const game = await connectTo(server.url, events, memoryCredentials(), clock);
    world.http429Next = 1;
    const result = await game.call('get_status', {});
    // One wait of the header's 1 s while the game had seen no call, then the call went through.
    expect(clock.waits).toEqual([1000]);
    expect(callsAtWait).toEqual([0]);
    expect(world.calls).toHaveLength(1);
    expect(result.code).toBe('not_authenticated');
    expect(events).toContainEqual({ type: 'rate-limited', waitMs: 1000 });
  });

  it('/mcp and /mcp/v2 of one host share accounts (credentials are filed by host)', async () => {
    const world = createWorld();
    const server = await serve(world);
    const credentials = memoryCredentials();
    const flat = await connectTo(server.url, [], credentials);
    await flat.call('register', { username: 'nova', empire: 'solarian' });
    const origin = new URL(server.url).origin;
    expect((await credentials.get(origin, 'nova'))?.password).toBe(world.accounts.get('nova'));
    const grouped = await connectTo(`${origin}/mcp/v2?preset=standard`, [], credentials);
    expect(await grouped.loginIfKnown()).toBe(true);
    expect(grouped.username()).toBe('nova');
  });

  it('finds an account an older version filed under the full URL, and files it under the host', async () => {
    const world = createWorld();
    world.accounts.set('vega', 'v'.repeat(64));
    const server = await serve(world);
    const credentials = memoryCredentials();
    await credentials.put(server.url, 'vega', 'v'.repeat(64));
    const game = await connectTo(server.url, [], credentials);
    expect(await game.loginIfKnown()).toBe(true);
    expect((await credentials.get(new URL(server.url).origin, 'vega'))?.password).toBe('v'.repeat(64));
  });
});
