// FleetKnowledge's systems and dangers: the newest survey per system wins and an unchanged one writes nothing, the
// list handed out stays the same array until something changes (readers skip re-merging), dangers are the others'
// and lapse after the window, and both outlive the process in a real SQLite file with their age.
import { describe, expect, it } from 'vitest';
import { FleetKnowledge } from '../../../internal/fleet/shared-knowledge.js';
import { openStore, type FleetTable } from '../../../internal/store/index.js';
import { tempDbPath } from '../store/helpers.js';

const SOL = {
  systemId: 'sol',
  name: 'Sol',
  policeLevel: 100,
  connections: ['vega', 'wilds'],
  pois: [
    { id: 'sol_central', name: 'Sol Central', type: 'station', hasBase: true },
    { id: 'sol_belt', name: 'Sol Belt', type: 'asteroid_belt', hasBase: false },
  ],
};

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

function countingStore(): Pick<FleetTable, 'putKnowledge' | 'knowledge'> & { writes: string[] } {
  const store = {
    writes: [] as string[],
    putKnowledge(input: { kind: string; key: string }): Promise<void> {
      store.writes.push(`${input.kind} ${input.key}`);
      return Promise.resolve();
    },
    knowledge: () => Promise.resolve([]),
  };
  return store;
}

describe('FleetKnowledge systems', () => {
  it('keeps the newest survey, writes only a changed one, and hands out one array until a change', async () => {
    const time = clock();
    const store = countingStore();
    const fleet = await FleetKnowledge.open({ fleet: 'f', store, now: time.now });
    const list0 = fleet.port('bob').systems();
    fleet.port('ann').publishSystem(SOL);
    const list1 = fleet.port('bob').systems();
    expect(list1).not.toBe(list0);
    expect(list1.map((s) => [s.systemId, s.captain])).toEqual([['sol', 'ann']]);
    // Every captain sees every survey, its own included (its map already has it; the merge skips it).
    expect(fleet.port('ann').systems()).toBe(list1);

    time.advance(5_000);
    fleet.port('bob').publishSystem(SOL);
    await fleet.settled();
    expect(store.writes).toEqual(['system sol']);
    expect(fleet.port('cid').systems()).toBe(list1);
    expect(fleet.systems()[0]).toMatchObject({ captain: 'bob', ageMs: 0 });

    fleet.port('bob').publishSystem({ ...SOL, pois: SOL.pois.slice(0, 1), at: 10 });
    expect(fleet.systems()[0]?.pois).toHaveLength(2);
    fleet.port('bob').publishSystem({ ...SOL, policeLevel: 75 });
    await fleet.settled();
    expect(store.writes).toEqual(['system sol', 'system sol']);
    expect(fleet.port('cid').systems()).not.toBe(list1);
    expect(fleet.stats().systems).toBe(1);
  });
});

describe('FleetKnowledge dangers', () => {
  it("gives each captain the others' recent dangers, newest per system, and forgets them after the window", () => {
    const time = clock();
    const fleet = new FleetKnowledge({ fleet: 'f', now: time.now, dangerMs: 60_000 });
    fleet.port('ann').publishDanger({ systemId: 'wilds', what: '25 hull lost' });
    time.advance(10_000);
    fleet.port('bob').publishDanger({ systemId: 'wilds', what: 'ship destroyed' });
    expect(
      fleet
        .port('cid')
        .dangers()
        .map((d) => [d.captain, d.what]),
    ).toEqual([['bob', 'ship destroyed']]);
    expect(
      fleet
        .port('bob')
        .dangers()
        .map((d) => [d.captain, d.what]),
    ).toEqual([['ann', '25 hull lost']]);
    expect(fleet.dangers().map((d) => d.ageMs)).toEqual([0]);

    time.advance(55_000);
    // Ann's is 65 s old now: past the window; Bob's (55 s) still holds.
    expect(fleet.port('bob').dangers()).toEqual([]);
    expect(
      fleet
        .port('cid')
        .dangers()
        .map((d) => d.captain),
    ).toEqual(['bob']);
    time.advance(10_000);
    expect(fleet.port('cid').dangers()).toEqual([]);
    expect(fleet.stats().dangers).toBe(0);
  });
});

describe('FleetKnowledge systems and dangers in a SQLite file', () => {
  it('reloads them after a restart with the age they had; a row it cannot read is skipped', async () => {
    const { file } = tempDbPath();
    const time = clock();
    const first = await openStore({ path: file, now: time.now });
    const fleet = await FleetKnowledge.open({ fleet: 'miners', store: first.fleets, now: time.now });
    fleet.port('ann').publishSystem(SOL);
    fleet.port('ann').publishDanger({ systemId: 'wilds', what: '30 hull lost' });
    await fleet.settled();
    await first.fleets.putKnowledge({ fleet: 'miners', kind: 'system', key: 'bad', value: { pois: 3 }, captain: 'x' });
    await first.close();

    time.advance(90_000);
    const second = await openStore({ path: file, now: time.now });
    const again = await FleetKnowledge.open({ fleet: 'miners', store: second.fleets, now: time.now });
    expect(again.systems()).toEqual([{ ...SOL, captain: 'ann', at: 1_000_000, ageMs: 90_000 }]);
    expect(again.dangers()).toEqual([
      { systemId: 'wilds', what: '30 hull lost', captain: 'ann', at: 1_000_000, ageMs: 90_000 },
    ]);
    expect(
      again
        .port('bob')
        .dangers()
        .map((d) => d.systemId),
    ).toEqual(['wilds']);
    await second.close();
  });
});
