// The clock: realtime ticks on a timer (mutations wait for the boundary), turbo ticks on demand and keeps ticking while
// anyone is pending or in transit; close() stops it. Reads the tick from structuredContent (`structured: true`): the
// text carries no tick, as on SpaceMolt.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createMinimolt } from '../../../internal/sim/index.js';
import { carrySession, type Call, type Result } from './mcp.js';

async function open(tickMs: number): Promise<{
  call: Call;
  done: () => Promise<void>;
  sim: Awaited<ReturnType<typeof createMinimolt>>;
}> {
  const sim = await createMinimolt({ tickMs, npcChatChance: 0, structured: true, registrationCode: 'clock' });
  const client = new Client({ name: 'clock', version: '1' });
  await client.connect(await sim.connect({ face: 'v1' }));
  return {
    sim,
    // The v1 face wants the greeting's session_id on every call after login.
    call: carrySession(async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result),
    done: async () => {
      await client.close();
      await sim.close();
    },
  };
}

/**
 * Lets `ticks` realtime ticks pass on the fake clock, then lets the MCP round trips they release finish (the in-memory
 * transport settles on promises; setImmediate stays real, so one turn of the event loop drains them).
 */
async function passTicks(ticks: number, tickMs: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ticks * tickMs);
  await new Promise((resolve) => setImmediate(resolve));
}

/** Advances the fake clock one tick at a time until `pending` settles; resolves with its value. */
async function tickUntil<T>(pending: Promise<T>, tickMs: number): Promise<T> {
  let settled = false;
  pending.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  for (let ticks = 0; !settled; ticks += 1) {
    if (ticks > 1000) throw new Error('no answer after 1000 ticks');
    await passTicks(1, tickMs);
  }
  return pending;
}

describe('realtime', () => {
  // The clock's timers and Date are fake: ticks pass when the test says so, not while it sleeps.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  test('ticks advance on their own; a mutation resolves at the next boundary; travel takes its ticks', async () => {
    const tickMs = 25;
    const { sim, call, done } = await open(tickMs);
    try {
      await call('register', { username: 'Clocked', empire: 'solarian', registration_code: 'clock' });
      const before = sim.tick;
      const undock = await tickUntil(call('undock'), tickMs);
      expect(undock.structuredContent?.tick).toBe(before + 1); // the next boundary
      const pois = (await call('get_system')).structuredContent?.details.system.pois;
      const far = [...pois].sort((a: any, b: any) => b.distance - a.distance)[0];
      const start = sim.tick;
      const travel = await tickUntil(call('travel', { target_poi: far.id }), tickMs);
      expect(travel.structuredContent?.details.ticks).toBe(Math.ceil(far.distance));
      expect(travel.structuredContent?.tick - start).toBe(Math.ceil(far.distance)); // on a fake clock no tick slips in
      const arrived = sim.tick;
      await passTicks(3, tickMs);
      expect(sim.tick).toBe(arrived + 3); // ticks without actions too
    } finally {
      await done();
    }
    const stopped = sim.tick;
    await passTicks(4, tickMs);
    expect(sim.tick).toBe(stopped);
  });
});

test('turbo: no tick without a mutation; one per action; multi-tick travel runs through at once', async () => {
  const { sim, call, done } = await open(0);
  try {
    await call('register', { username: 'Turbo', empire: 'outerrim', registration_code: 'clock' });
    await call('get_status');
    expect(sim.tick).toBe(0);
    await call('undock');
    expect(sim.tick).toBe(1);
    const neighbour = (await call('get_system')).structuredContent?.details.system.connections[0].system_id;
    const jump = await call('jump', { target_system: neighbour });
    expect(jump.structuredContent?.details.ticks).toBe(5); // speed 2
    expect(sim.tick).toBe(6);
    expect(sim.stats().players[0]).toMatchObject({ busy_ticks: 6, ticks_alive: 6 });
  } finally {
    await done();
  }
});
