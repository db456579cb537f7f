// Issue 48: one set of figures for a parked and resumed captain. A captain given --max-ticks 300 in its fleet file,
// parked mid-run and resumed, ends saying the limit the file set ("reached --max-ticks 300"), not what its last stretch
// had left of it.
import { afterEach, describe, expect, it } from 'vitest';
import { fleetSummaryJson } from '../../internal/cli/fleet-status.js';
import { buildReport, reportJson } from '../../internal/cli/report.js';
import { FleetBroker, type FleetSummary } from '../../internal/fleet/index.js';
import { captain, fleetRunner, startFleetFixture, type FleetFixture } from '../fakes/fleet-fixture.js';

let fixture: FleetFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return await check();
}

describe('a captain parked and resumed', () => {
  it('finishes at the limit its fleet file set, says that limit, and shows the figures report shows', async () => {
    const fleet = (fixture = await startFleetFixture({ tickMs: 20 }));
    const runner = fleetRunner(fleet, [captain('steady', { maxTicks: 300 })], {
      broker: new FleetBroker({ renewMs: 10, startGapMs: 0 }),
    });
    const controller = new AbortController();
    const done = runner.run(controller.signal);
    const row = () => fleet.store.fleets.captain('test', 'steady');
    let summary: FleetSummary | undefined;
    try {
      expect(await until(async () => ((await row())?.actions ?? 0) > 2, 30_000)).toBe(true);
      await fleet.store.fleets.addOrder({ fleet: 'test', captain: 'steady', command: 'park' });
      expect(await until(async () => (await row())?.state === 'parked', 30_000)).toBe(true);
      await fleet.store.fleets.addOrder({ fleet: 'test', captain: 'steady', command: 'resume' });
      expect(await until(async () => (await row())?.state === 'finished', 60_000)).toBe(true);
      // The limit said is the file's, whatever the stretch after the resume had left (on a machine slow enough for the
      // ticks to run out while parked, the note says so after the same limit).
      expect((await row())?.note).toMatch(/^reached --max-ticks 300( while parked \(.*\))?$/);
      summary = await done;
    } finally {
      controller.abort();
      await done;
    }
    // One set of figures: the fleet's summary of the parked-and-resumed captain says what `report --json` says of its
    // session (turns, ticks, actions, the busy share), not counts of its own stretches.
    const json = await fleetSummaryJson(summary, fleet.store);
    const said = (json.captains as Array<Record<string, unknown>>).find((c) => c.captain === 'steady');
    const report = reportJson(await buildReport(fleet.store, (await row())!.sessionName));
    expect(said).toMatchObject({
      turns: report.turns,
      ticks: report.ticks,
      actions: report.actions,
      tick_utilisation: report.tick_utilisation,
    });
    expect(report.ticks).toBeGreaterThanOrEqual(300);
  }, 90_000);
});
