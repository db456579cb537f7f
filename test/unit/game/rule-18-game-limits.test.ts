// Rule 18: stay inside the game's limits by design. The connection plays a fake that enforces SpaceMolt's limits like
// the real server (fake-limits.ts) on a shared fake clock with scaled time: a 600 ms "minute", 100 ms ticks.
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectGame,
  IpPacer,
  NOTIFICATIONS_ASKED_TEXT,
  type ConnectGameOptions,
  type GameConnection,
} from '../../../internal/game/index.js';
import type { ConnectionEvent } from '../../../internal/shared/index.js';
import { FakeLimits } from '../../fakes/fake-limits.js';
import { createWorld, inMemoryTarget, type FakeWorld } from '../../fakes/fake-spacemolt-server.js';
import { memoryCredentials } from '../../fakes/memory-credentials.js';
import { fakeClock, type FakeClock } from './fake-clock.js';

const MINUTE = 600;
const TICK = 100;

const open: GameConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connect(
  world: FakeWorld,
  clock: FakeClock,
  extra: Partial<ConnectGameOptions> = {},
): Promise<{ game: GameConnection; events: ConnectionEvent[] }> {
  const events: ConnectionEvent[] = [];
  const game = await connectGame({
    target: inMemoryTarget(world),
    credentials: memoryCredentials(),
    clock,
    tickMs: TICK,
    retry: { backoffMs: 10 },
    ...extra,
  });
  game.onEvent((event) => events.push(event));
  open.push(game);
  return { game, events };
}

function limitedWorld(
  clock: FakeClock,
  limits: Partial<ConstructorParameters<typeof FakeLimits>[0]> = {},
): { world: FakeWorld; limits: FakeLimits } {
  const fake = new FakeLimits({ now: clock.now, windowMs: MINUTE, tickMs: TICK, ...limits });
  return { world: createWorld({ limits: fake }), limits: fake };
}

const toServer = (world: FakeWorld, tool: string): number => world.calls.filter((call) => call.tool === tool).length;

describe('rule 18: the account query budget', () => {
  it('never sends more than N queries in any window: a full window is waited out on the clock, with an event', async () => {
    const clock = fakeClock();
    const { world, limits } = limitedWorld(clock, { queriesPerWindow: 5 });
    const { game, events } = await connect(world, clock, { queryBudget: { queriesPerWindow: 5, windowMs: MINUTE } });
    await game.call('register', { username: 'nova', empire: 'solarian' });
    const results = [];
    // Distinct arguments: no answer can come from this tick's earlier ones.
    for (let index = 0; index < 17; index += 1) results.push(await game.call('get_status', { page: index }));
    expect(results.every((result) => !result.isError)).toBe(true);
    expect(toServer(world, 'get_status')).toBe(17);
    expect(limits.peakQueries).toBeLessThanOrEqual(5);
    expect(limits.refused).toEqual({});
    expect(game.stats().budgetWaits).toBeGreaterThan(0);
    expect(events).toContainEqual({ type: 'paced', reason: 'query_budget', waitMs: expect.any(Number) });
    // 17 queries at 5 a window take at least three full windows.
    expect(clock.waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(3 * MINUTE);
  });

  it('parallel queries share the window too', async () => {
    const clock = fakeClock();
    const { world, limits } = limitedWorld(clock, { queriesPerWindow: 4 });
    const { game } = await connect(world, clock, { queryBudget: { queriesPerWindow: 4, windowMs: MINUTE } });
    await game.call('register', { username: 'nova', empire: 'solarian' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => game.call('get_status', { page: index })),
    );
    expect(results.every((result) => !result.isError)).toBe(true);
    expect(limits.peakQueries).toBeLessThanOrEqual(4);
    expect(limits.refused).toEqual({});
  });

  it('asks get_notifications once a tick: a second ask in the tick is answered here, without the server', async () => {
    const clock = fakeClock();
    const { world, limits } = limitedWorld(clock);
    const { game } = await connect(world, clock);
    await game.call('register', { username: 'nova', empire: 'solarian' });
    const first = await game.call('get_notifications', {});
    const second = await game.call('get_notifications', { limit: 5 });
    expect(first.isError).toBe(false);
    expect(second.isError).toBe(false);
    expect(second.text).toContain(NOTIFICATIONS_ASKED_TEXT);
    expect(toServer(world, 'get_notifications')).toBe(1);
    expect(await game.fetchEvents()).toBeUndefined();
    expect(toServer(world, 'get_notifications')).toBe(1);
    await clock.sleep(TICK);
    world.notifications.push({ id: 1, type: 'chat', channel: 'local', from: 'vega', message: 'hello' });
    expect((await game.fetchEvents())?.events).toEqual([
      { type: 'said', kind: 'chat', channel: 'local', from: 'vega', text: 'hello' },
    ]);
    expect(toServer(world, 'get_notifications')).toBe(2);
    expect(limits.refused).toEqual({});
    expect(game.stats().answeredLocally).toBe(2);
  });

  it("answers a repeated identical query from this tick's answer, unless a move was made since", async () => {
    const clock = fakeClock();
    const { world } = limitedWorld(clock);
    const { game } = await connect(world, clock);
    await game.call('register', { username: 'nova', empire: 'solarian' });
    const first = await game.call('get_status', { detail: true, page: 1 });
    const again = await game.call('get_status', { page: 1, detail: true }); // same query, keys in another order
    expect(again).toEqual(first);
    expect(toServer(world, 'get_status')).toBe(1);
    await game.call('get_status', { page: 2 });
    expect(toServer(world, 'get_status')).toBe(2);
    await game.call('mine', {});
    await game.call('get_status', { detail: true, page: 1 });
    expect(toServer(world, 'get_status')).toBe(3);
    await clock.sleep(TICK);
    await game.call('get_status', { detail: true, page: 1 });
    expect(toServer(world, 'get_status')).toBe(4);
    // Asked afresh (a person's /status: the game moves on its own, a cut-off travel still arrives), the game is asked.
    await game.call('get_status', { detail: true, page: 1 }, { fresh: true });
    expect(toServer(world, 'get_status')).toBe(5);
  });

  it('asks again after an error answer (errors are not kept)', async () => {
    const clock = fakeClock();
    const world = createWorld();
    const { game } = await connect(world, clock);
    expect((await game.call('get_status', {})).code).toBe('not_authenticated');
    await game.call('get_status', {});
    expect(toServer(world, 'get_status')).toBe(2);
  });
});

describe("rule 18: the machine's budgets, shared by every connection of the process", () => {
  it('paces logins and registrations at 30 a minute across two connections sharing one pacer', async () => {
    const clock = fakeClock();
    const limits = new FakeLimits({ now: clock.now });
    const world = createWorld({ limits });
    const pacer = new IpPacer({ clock });
    const credentials = memoryCredentials();
    const { game: first, events } = await connect(world, clock, { ipPacer: pacer, credentials });
    const { game: second, events: secondEvents } = await connect(world, clock, { ipPacer: pacer, credentials });
    await first.call('register', { username: 'nova', empire: 'solarian' });
    for (let index = 0; index < 20; index += 1) {
      expect(await first.loginIfKnown()).toBe(true);
      expect(await second.loginIfKnown()).toBe(true);
    }
    expect(world.logins).toBe(40);
    expect(limits.peakLogins).toBeLessThanOrEqual(30);
    expect(limits.refused).toEqual({});
    expect([...events, ...secondEvents]).toContainEqual({
      type: 'paced',
      reason: 'login_budget',
      waitMs: expect.any(Number),
    });
    expect(pacer.health().loginWaits).toBeGreaterThan(0);
    expect(clock.waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(60_000);
    expect(first.stats().ip).toEqual(second.stats().ip);
  });

  it('backs off every connection once the server refused too often, and the IP never gets timed out', async () => {
    const clock = fakeClock();
    const { world, limits } = limitedWorld(clock, { rejectionsToTimeout: 50 });
    const pacer = new IpPacer({ clock, windowMs: MINUTE, rejectionThreshold: 20 });
    const credentials = memoryCredentials();
    const { game: first, events } = await connect(world, clock, {
      ipPacer: pacer,
      credentials,
      retry: { rateLimitWaits: 3 },
    });
    const { game: second } = await connect(world, clock, { ipPacer: pacer, credentials, retry: { rateLimitWaits: 3 } });
    await first.call('register', { username: 'nova', empire: 'solarian' });
    // A server refusing everything, asking for a 1 ms wait: on its own the retry loop would hammer it.
    world.retryAfter = 0.001;
    world.rateLimitNext = 10_000;
    for (let index = 0; index < 40; index += 1) {
      await first.call('get_status', { page: index });
      await second.call('get_status', { page: index });
    }
    expect(limits.ipTimeouts).toBe(0);
    expect(pacer.health().backoffs).toBeGreaterThan(0);
    expect(events).toContainEqual({ type: 'paced', reason: 'rejection_backoff', waitMs: expect.any(Number) });
  });

  it('without the back-off the same storm times the IP out (the fake can tell)', async () => {
    const clock = fakeClock();
    const { world, limits } = limitedWorld(clock, { rejectionsToTimeout: 50 });
    const pacer = new IpPacer({ clock, windowMs: MINUTE, rejectionThreshold: 0 }); // 0: no back-off
    const { game } = await connect(world, clock, { ipPacer: pacer, retry: { rateLimitWaits: 3 } });
    await game.call('register', { username: 'nova', empire: 'solarian' });
    world.retryAfter = 0.001;
    world.rateLimitNext = 10_000;
    for (let index = 0; index < 40; index += 1) await game.call('get_status', { page: index });
    expect(limits.ipTimeouts).toBeGreaterThan(0);
  });
});

describe('rule 18: session answers', () => {
  it.each([false, true])('session_invalid (json: %s) logs back in exactly once and retries the call', async (json) => {
    const clock = fakeClock();
    const world = createWorld();
    const { game } = await connect(world, clock);
    await game.call('register', { username: 'nova', empire: 'solarian' });
    world.sessionErrorNext = { code: 'session_invalid', json };
    const loginsBefore = world.logins;
    const result = await game.call('mine', {});
    expect(result.isError).toBe(false);
    expect(result.text).toContain('Mined 5 Iron Ore');
    expect(world.logins - loginsBefore).toBe(1);
    expect(toServer(world, 'mine')).toBe(2);
  });

  it('after session_required, every later call carries the current session_id though no schema declares it', async () => {
    const clock = fakeClock();
    const world = createWorld();
    const { game } = await connect(world, clock);
    await game.call('register', { username: 'nova', empire: 'solarian' });
    expect(world.calls.at(-1)?.args.session_id).toBeUndefined();
    world.sessionErrorNext = { code: 'session_required' };
    const loginsBefore = world.logins;
    const result = await game.call('get_status', {});
    expect(result.isError).toBe(false);
    expect(world.logins - loginsBefore).toBe(1);
    const sessionId = world.sessionIds.get('nova');
    expect(world.calls.at(-1)?.args.session_id).toBe(sessionId);
    await game.call('mine', {});
    expect(world.calls.at(-1)).toEqual({ tool: 'mine', args: { session_id: sessionId } });
    expect(JSON.stringify(result)).not.toContain(sessionId);
  });
});
