// The clock: realtime ticks on a timer (mutations wait for the boundary), turbo ticks on demand and keeps ticking while
// anyone is pending or in transit; close() stops it. Reads the tick from structuredContent (`structured: true`): the
// text carries no tick, as on SpaceMolt.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, test } from 'vitest';
import { createMinimolt } from '../../../internal/sim/index.js';

type Result = { isError?: boolean; structuredContent?: Record<string, any> };

async function open(tickMs: number): Promise<{ call: (name: string, args?: Record<string, unknown>) => Promise<Result>; done: () => Promise<void>; sim: Awaited<ReturnType<typeof createMinimolt>> }> {
  const sim = await createMinimolt({ tickMs, npcChatChance: 0, structured: true, registrationCode: 'clock' });
  const client = new Client({ name: 'clock', version: '1' });
  await client.connect(await sim.connect({ face: 'v1' }));
  return {
    sim,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result,
    done: async () => { await client.close(); await sim.close(); },
  };
}

test('realtime: ticks advance on their own; a mutation resolves at the next boundary; travel takes its ticks', async () => {
  const { sim, call, done } = await open(25);
  try {
    await call('register', { username: 'Clocked', empire: 'solarian', registration_code: 'clock' });
    const before = sim.tick;
    const undock = await call('undock');
    expect(undock.structuredContent?.tick).toBeGreaterThan(before); // the next boundary (one more if a tick slipped in)
    const pois = (await call('get_system')).structuredContent?.details.system.pois;
    const far = [...pois].sort((a: any, b: any) => b.distance - a.distance)[0];
    const start = sim.tick;
    const travel = await call('travel', { target_poi: far.id });
    expect(travel.structuredContent?.details.ticks).toBe(Math.ceil(far.distance));
    const elapsed = travel.structuredContent?.tick - start;
    expect(elapsed).toBeGreaterThanOrEqual(Math.ceil(far.distance));
    expect(elapsed).toBeLessThanOrEqual(Math.ceil(far.distance) + 1);
    await expect.poll(() => sim.tick, { timeout: 2000 }).toBeGreaterThan(travel.structuredContent?.tick + 2); // ticks without actions too
  } finally {
    await done();
  }
  const stopped = sim.tick;
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(sim.tick).toBe(stopped);
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
