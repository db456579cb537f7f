// FleetKnowledge: the newest view per station wins, a captain never reads its own views back, claims count only the
// others' and lapse, and the views outlive the process in a real SQLite file with the age they had.
import { describe, expect, it } from 'vitest';
import { FleetKnowledge } from '../../../internal/fleet/shared-knowledge.js';
import { openStore, type FleetTable } from '../../../internal/store/index.js';
import { tempDbPath } from '../store/helpers.js';

const SOL_PORT = { poiId: 'sol_port', systemId: 'sol', name: 'Sol Port' };

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** A store that counts its writes (the hot path must not write when nothing changed). */
function countingStore(): Pick<FleetTable, 'putKnowledge' | 'knowledge'> & { writes: number } {
  const store = {
    writes: 0,
    putKnowledge(): Promise<void> {
      store.writes += 1;
      return Promise.resolve();
    },
    knowledge: () => Promise.resolve([]),
  };
  return store;
}

describe('FleetKnowledge views', () => {
  it('keeps the newest view per station and ignores an older one that arrives late', () => {
    const time = clock();
    const fleet = new FleetKnowledge({ fleet: 'f', now: time.now });
    fleet.port('ann').publishMarket({ ...SOL_PORT, bids: { iron_ore: 20 }, noBuyers: [], at: 2_000_000 });
    fleet.port('bob').publishMarket({ ...SOL_PORT, bids: { iron_ore: 5 }, noBuyers: [], at: 1_500_000 });
    expect(fleet.markets()).toHaveLength(1);
    expect(fleet.markets()[0]).toMatchObject({ captain: 'ann', bids: { iron_ore: 20 } });
    fleet.port('bob').publishMarket({ ...SOL_PORT, bids: { iron_ore: 7 }, noBuyers: ['gold_ore'], at: 2_500_000 });
    expect(fleet.markets()[0]).toMatchObject({ captain: 'bob', bids: { iron_ore: 7 }, noBuyers: ['gold_ore'] });
  });

  it("leaves a captain's own views out of its port, and gives the age of each view", () => {
    const time = clock();
    const fleet = new FleetKnowledge({ fleet: 'f', now: time.now });
    fleet.port('ann').publishMarket({ ...SOL_PORT, bids: { iron_ore: 20 }, noBuyers: [] });
    fleet.port('bob').publishMarket({ poiId: 'vex', systemId: 'vex', name: 'Vex', bids: {}, noBuyers: ['iron_ore'] });
    time.advance(30_000);
    expect(
      fleet
        .port('ann')
        .markets()
        .map((v) => v.poiId),
    ).toEqual(['vex']);
    expect(
      fleet
        .port('bob')
        .markets()
        .map((v) => v.poiId),
    ).toEqual(['sol_port']);
    expect(fleet.port('cid').markets()).toHaveLength(2);
    expect(fleet.markets().map((v) => v.ageMs)).toEqual([30_000, 30_000]);
  });

  it('writes to the store only when bids or no-buyers changed, refreshing the age in memory otherwise', async () => {
    const time = clock();
    const store = countingStore();
    const fleet = await FleetKnowledge.open({ fleet: 'f', store, now: time.now });
    const ann = fleet.port('ann');
    ann.publishMarket({ ...SOL_PORT, bids: { iron_ore: 20 }, noBuyers: [] });
    time.advance(5_000);
    ann.publishMarket({ ...SOL_PORT, bids: { iron_ore: 20 }, noBuyers: [] });
    await fleet.settled();
    expect(store.writes).toBe(1);
    expect(fleet.markets()[0]?.ageMs).toBe(0);
    ann.publishMarket({ ...SOL_PORT, bids: { iron_ore: 19 }, noBuyers: [] });
    await fleet.settled();
    expect(store.writes).toBe(2);
    expect(fleet.stats()).toEqual({ stations: 1, systems: 0, dangers: 0, claims: 0, updates: 3 });
  });
});

describe('FleetKnowledge claims', () => {
  it("counts only the other captains' claims, a new claim replacing the captain's earlier one for that item", () => {
    const time = clock();
    const fleet = new FleetKnowledge({ fleet: 'f', now: time.now });
    fleet.port('ann').claimSale({ poiId: 'sol_port', item: 'iron_ore', quantity: 40 });
    fleet.port('bob').claimSale({ poiId: 'sol_port', item: 'iron_ore', quantity: 10 });
    expect(fleet.port('ann').claimed('sol_port', 'iron_ore')).toBe(10);
    expect(fleet.port('bob').claimed('sol_port', 'iron_ore')).toBe(40);
    expect(fleet.port('cid').claimed('sol_port', 'iron_ore')).toBe(50);
    expect(fleet.port('cid').claimed('sol_port', 'copper_ore')).toBe(0);
    // Ann changes her mind: her claim moves to Sol Central.
    fleet.port('ann').claimSale({ poiId: 'sol_central', item: 'iron_ore', quantity: 40 });
    expect(fleet.port('cid').claimed('sol_port', 'iron_ore')).toBe(10);
    expect(fleet.port('cid').claimed('sol_central', 'iron_ore')).toBe(40);
    // Sold: a zero claim withdraws it.
    fleet.port('bob').claimSale({ poiId: 'sol_port', item: 'iron_ore', quantity: 0 });
    expect(fleet.port('cid').claimed('sol_port', 'iron_ore')).toBe(0);
    expect(fleet.stats().claims).toBe(1);
  });

  it('lets claims lapse after claimMs (or the claim’s own forMs)', () => {
    const time = clock();
    const fleet = new FleetKnowledge({ fleet: 'f', now: time.now, claimMs: 60_000 });
    fleet.port('ann').claimSale({ poiId: 'sol_port', item: 'iron_ore', quantity: 40 });
    fleet.port('bob').claimSale({ poiId: 'sol_port', item: 'iron_ore', quantity: 5, forMs: 200_000 });
    time.advance(59_999);
    expect(fleet.port('cid').claimed('sol_port', 'iron_ore')).toBe(45);
    time.advance(1);
    expect(fleet.port('cid').claimed('sol_port', 'iron_ore')).toBe(5);
    expect(fleet.stats().claims).toBe(1);
  });
});

describe('FleetKnowledge in a SQLite file', () => {
  it('reloads the views after a restart with the age they had, claims gone', async () => {
    const { file } = tempDbPath();
    const time = clock();
    const first = await openStore({ path: file, now: time.now });
    const fleet = await FleetKnowledge.open({ fleet: 'miners', store: first.fleets, now: time.now });
    fleet.port('ann').publishMarket({ ...SOL_PORT, bids: { iron_ore: 20, copper_ore: 31 }, noBuyers: ['gold_ore'] });
    fleet.port('ann').claimSale({ poiId: 'sol_port', item: 'iron_ore', quantity: 40 });
    // Another fleet in the same file is not mixed in.
    const traders = await FleetKnowledge.open({ fleet: 'traders', store: first.fleets, now: time.now });
    traders
      .port('zed')
      .publishMarket({ poiId: 'vex', systemId: 'vex', name: 'Vex', bids: { iron_ore: 1 }, noBuyers: [] });
    await Promise.all([fleet.settled(), traders.settled()]);
    await first.close();

    time.advance(90_000);
    const second = await openStore({ path: file, now: time.now });
    const again = await FleetKnowledge.open({ fleet: 'miners', store: second.fleets, now: time.now });
    expect(again.markets()).toEqual([
      {
        ...SOL_PORT,
        bids: { iron_ore: 20, copper_ore: 31 },
        noBuyers: ['gold_ore'],
        captain: 'ann',
        at: 1_000_000,
        ageMs: 90_000,
      },
    ]);
    expect(again.port('bob').markets()).toHaveLength(1);
    expect(again.port('ann').markets()).toHaveLength(0);
    expect(again.port('bob').claimed('sol_port', 'iron_ore')).toBe(0);
    await second.close();
  });

  it('skips a stored row it cannot read instead of failing to start', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    await store.fleets.putKnowledge({ fleet: 'f', kind: 'market', key: 'x', value: { bids: 'lots' }, captain: 'ann' });
    await store.fleets.putKnowledge({
      fleet: 'f',
      kind: 'market',
      key: 'sol_port',
      value: { ...SOL_PORT, bids: { iron_ore: 3 }, noBuyers: [] },
      captain: 'ann',
      at: 5,
    });
    const fleet = await FleetKnowledge.open({ fleet: 'f', store: store.fleets, now: () => 10 });
    expect(fleet.markets().map((v) => [v.poiId, v.ageMs])).toEqual([['sol_port', 5]]);
    await store.close();
  });
});
