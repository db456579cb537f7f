// Parked captains hold no growing state (issue 48): a parked captain looks at the game's tick now and then until it is
// resumed; each look once added an abort listener to its signal and never took it off (one a second: Node's
// MaxListeners warning after ~11 s, ~52 MB a day per parked captain). Here the looks come every 10 ms (the broker's
// renewal time, which bounds them), and the listeners on the captain's signal are counted at each look.
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { FleetBroker } from '../../internal/fleet/index.js';
import { captain, fleetRunner, startFleetFixture, type FleetFixture } from '../fakes/fleet-fixture.js';

let fixture: FleetFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return await check();
}

describe('a parked captain', () => {
  it('keeps the listeners on its signal flat over many looks, with no MaxListeners warning', async () => {
    const fleet = (fixture = await startFleetFixture({ tickMs: 20 }));
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    let parked = false;
    const listenersAtLooks: number[] = [];
    const clock = fleet.game.clock;
    fleet.game.clock = {
      source: clock.source,
      now: () => clock.now(),
      tickMs: clock.tickMs,
      refresh: async (signal) => {
        // A parked captain refreshes the clock once a look, with its own signal.
        if (parked && signal) listenersAtLooks.push(getEventListeners(signal, 'abort').length);
        await clock.refresh(signal);
      },
    };
    const runner = fleetRunner(fleet, [captain('sleeper')], {
      broker: new FleetBroker({ renewMs: 10, startGapMs: 0 }),
    });
    const controller = new AbortController();
    const done = runner.run(controller.signal);
    try {
      const row = async (): Promise<string | undefined> => (await fleet.store.fleets.captain('test', 'sleeper'))?.state;
      expect(await until(async () => (await row()) === 'playing', 30_000)).toBe(true);
      await fleet.store.fleets.addOrder({ fleet: 'test', captain: 'sleeper', command: 'park' });
      expect(await until(async () => (await row()) === 'parked', 30_000)).toBe(true);
      parked = true;
      // 60 looks: with one listener left behind by each, the count would climb to 60 and Node would warn past 10.
      expect(await until(() => listenersAtLooks.length >= 60, 30_000)).toBe(true);
      const counts = listenersAtLooks.slice(0, 60);
      expect(Math.max(...counts.slice(10))).toBeLessThanOrEqual(counts[0]!);
      expect(warnings.filter((text) => /MaxListeners/.test(text))).toEqual([]);
    } finally {
      controller.abort();
      await done;
      process.off('warning', onWarning);
    }
  }, 60_000);
});
