// A fleet of more captains than Node's default of 10 listeners per signal: every captain waits on the fleet's one
// signal (its staggered start, the broker's pacing, its own loop), which printed Node's "possible memory leak"
// warning on stderr for any fleet of 11 or more.
import { afterEach, expect, it } from 'vitest';
import { captain, fleetRunner, startFleetFixture, type FleetFixture } from '../fakes/fleet-fixture.js';

let fixture: FleetFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

it('a fleet of 12 autopilot captains plays without a listener-leak warning', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    fixture = await startFleetFixture({ tickMs: 30 });
    const captains = Array.from({ length: 12 }, (_, index) =>
      captain(`cap${String(index + 1).padStart(2, '0')}`, { maxTicks: 3 }),
    );
    const summary = await fleetRunner(fixture, captains).run(new AbortController().signal);
    expect(summary.captains.filter((row) => row.state !== 'finished').map((row) => `${row.name}: ${row.note}`)).toEqual(
      [],
    );
    expect(summary.captains).toHaveLength(12);
    await new Promise((done) => setImmediate(done));
    expect(warnings.filter((text) => text.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
}, 90_000);
