// The broker on the shipped path: five autopilot captains of one fleet (the real FleetRunner, real connections over
// HTTP, a real SQLite store) register and play minimolt behind a proxy that enforces per-IP limits like SpaceMolt —
// logins + registrations per window, and past so many refusals a window an IP timeout. Time is scaled: a 40 ms tick,
// a one-second "minute", two logins a window and a timeout past two refusals in the window (SpaceMolt: 30 a minute, 50 refusals).
// With the broker the fleet never trips the timeout; the same fleet without it (each connection pacing only itself,
// as five processes would) does — so this test can fail.
import { afterEach, describe, expect, it } from 'vitest';
import { FleetBroker } from '../../internal/fleet/index.js';
import { captain, fleetRunner, startFleetFixture, type FleetFixture } from '../fakes/fleet-fixture.js';

const LIMITS = {
  queriesPerWindow: 10_000,
  windowMs: 1000,
  tickMs: 40,
  loginsPerWindow: 2,
  rejectionsToTimeout: 2,
  timeoutMs: 5000,
};

let fixture: FleetFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function playFleet(broker: FleetBroker): Promise<FleetFixture> {
  fixture = await startFleetFixture({ tickMs: 40, limits: LIMITS });
  const captains = ['ada', 'bob', 'cyd', 'dee', 'eli'].map((name) => captain(name, { maxTicks: 60 }));
  const runner = fleetRunner(fixture, captains, { broker });
  const summary = await runner.run(new AbortController().signal);
  expect(summary.captains).toHaveLength(5);
  return fixture;
}

describe('a fleet of 5 inside per-IP limits', () => {
  it('with the broker: every captain registers and plays, logins never above the limit, no IP timeout', async () => {
    const broker = new FleetBroker({
      loginsPerWindow: LIMITS.loginsPerWindow,
      windowMs: LIMITS.windowMs,
      rejectionThreshold: 2,
      rejectionsToTimeout: LIMITS.rejectionsToTimeout,
      startGapMs: 20,
    });
    const { proxy, store, sim } = await playFleet(broker);
    expect(proxy?.limits.ipTimeouts).toBe(0);
    expect(proxy?.limits.peakLogins).toBeLessThanOrEqual(LIMITS.loginsPerWindow);
    const rows = await store.fleets.captains('test');
    expect(rows.map((row) => row.state)).toEqual(['finished', 'finished', 'finished', 'finished', 'finished']);
    // Every captain played: it acted, and the game counted its actions too. (How many actions fit in 60 wall-clock
    // ticks after the paced logins depends on the machine: that is not what this test is about.)
    for (const row of rows) expect(row.actions).toBeGreaterThan(0);
    const players = sim.stats().players;
    expect(players).toHaveLength(5);
    for (const player of players) expect(player.actions).toBeGreaterThan(0);
    expect(broker.health().peakLogins).toBeLessThanOrEqual(LIMITS.loginsPerWindow);
  }, 120_000);

  it('without the broker the same fleet trips the IP timeout (the test above can fail)', async () => {
    const broker = new FleetBroker({
      perConnection: true,
      loginsPerWindow: LIMITS.loginsPerWindow,
      windowMs: LIMITS.windowMs,
      rejectionThreshold: 2,
    });
    const { proxy } = await playFleet(broker);
    expect(proxy?.limits.ipTimeouts).toBeGreaterThan(0);
  }, 120_000);
});
