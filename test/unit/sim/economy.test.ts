// Markets (depth, ask markup, recovery) and deposits (depletion, regeneration), computed lazily from ticks.
import { describe, expect, test } from 'vitest';
import { depositRemaining, depositUnits, quoteAsk, quoteBid, rawBid } from '../../../internal/sim/index.js';
import { ORE_IDS } from '../../../internal/sim/data.js';
import { itemName } from '../../../internal/sim/text/format.js';
import { addPlayer, codeOf, miningPoi, newEngine, ok, run, stationOf } from './helpers.js';

describe('market', () => {
  test('selling walks the bid down 0.5% per unit; the gap recovers 2% per tick', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const entry = stationOf(engine).market?.get('platinum_ore');
    if (!entry) throw new Error('no market');
    const start = rawBid(entry, engine.tick);
    expect(quoteAsk(entry, engine.tick)).toBe(Math.round(start * 1.25));
    p.cargo.set('platinum_ore', 40);
    const sold = ok<{ total_earned: number }>(engine, p, { type: 'sell', itemId: 'platinum_ore', quantity: 40 });
    let expected = 0;
    for (let i = 0; i < 40; i++) expected += Math.max(1, Math.round(start * 0.995 ** i));
    expect(sold.total_earned).toBe(expected);
    const after = rawBid(entry, engine.tick);
    expect(after).toBeCloseTo(start * 0.995 ** 40, 6);
    const gap = start - after;
    for (let i = 0; i < 10; i++) engine.processTick();
    expect(rawBid(entry, engine.tick)).toBeCloseTo(start - gap * 0.98 ** 10, 6);
    for (let i = 0; i < 1000; i++) engine.processTick();
    expect(quoteBid(entry, engine.tick)).toBe(Math.round(start));
    // Selling 40 units took the bid ~18% down: the seller got a market notification saying so.
    expect(p.notifications.some((n) => n.type === 'market' && /platinum_ore bid/.test(n.message))).toBe(true);
  });

  test('buying walks the ask up 0.5% per unit', () => {
    const engine = newEngine();
    const p = addPlayer(engine, 'Rich', 'nebula');
    const entry = stationOf(engine, 'haven').market?.get('iron_ore');
    if (!entry) throw new Error('no market');
    const ask0 = rawBid(entry, engine.tick) * 1.25;
    const bought = ok<{ total_cost: number }>(engine, p, { type: 'buy', itemId: 'iron_ore', quantity: 10 });
    let expected = 0;
    for (let i = 0; i < 10; i++) expected += Math.max(1, Math.round(ask0 * 1.005 ** i));
    expect(bought.total_cost).toBe(expected);
    expect(rawBid(entry, engine.tick) * 1.25).toBeCloseTo(ask0 * 1.005 ** 10, 6);
  });

  test('stations price items differently, so trade routes exist', () => {
    const engine = newEngine();
    const bids = [...engine.world.pois.values()]
      .filter((p) => p.market)
      .map((p) => p.market?.get('titanium_ore')?.equilibrium);
    expect(new Set(bids).size).toBeGreaterThan(1);
  });
});

describe('no buyers', () => {
  test('about one station in three refuses one item, drawn from the seed; every other item is bought', () => {
    const refusedAt = (seed: number): string[][] =>
      [...newEngine({ seed }).world.pois.values()]
        .filter((p) => p.market)
        .map((p) => [...(p.market?.values() ?? [])].filter((e) => !e.buys).map((e) => e.item));
    const refused = refusedAt(42);
    const refusing = refused.filter((items) => items.length > 0).length;
    expect(refusing).toBeGreaterThan(refused.length / 6);
    expect(refusing).toBeLessThan(refused.length / 1.5);
    for (const items of refused) expect(items.length).toBeLessThanOrEqual(1);
    for (const station of [...newEngine().world.pois.values()].filter((p) => p.market)) {
      expect(ORE_IDS.some((ore) => station.market?.get(ore)?.buys)).toBe(true);
    }
    expect(refusedAt(42)).toEqual(refused);
    expect(refusedAt(43)).not.toEqual(refused);
  });

  test('selling an item nobody buys sells nothing and succeeds: cargo, credits and the bid stay', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const station = [...engine.world.pois.values()].find((poi) =>
      [...(poi.market?.values() ?? [])].some((e) => !e.buys),
    );
    const entry = [...(station?.market?.values() ?? [])].find((e) => !e.buys);
    if (!station || !entry) throw new Error('no station refuses anything');
    Object.assign(p, { systemId: station.systemId, poiId: station.id, docked: true });
    p.cargo.set(entry.item, 7);
    const bid = rawBid(entry, engine.tick);
    const outcome = run(engine, p, { type: 'sell', itemId: entry.item, quantity: 7 });
    if (!outcome.ok) throw new Error(`sell failed: ${outcome.error.code}`);
    expect(outcome.result.text).toBe(`Sold 0 ${itemName(entry.item)} for 0cr. 7 unsold (no buyers).`);
    expect(outcome.result.details).toMatchObject({ quantity_sold: 0, total_earned: 0 });
    expect(p.cargo.get(entry.item)).toBe(7);
    expect(p.credits).toBe(150);
    expect(rawBid(entry, engine.tick)).toBe(bid);
  });
});

describe('deposits', () => {
  test('mining depletes a deposit; it regenerates 1% of max per tick, capped at max', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const poi = miningPoi(engine);
    const deposit = poi.deposits[0];
    if (!deposit) throw new Error('no deposit');
    ok(engine, p, { type: 'travel', targetPoi: poi.id });
    deposit.remaining = 5; // nearly empty, as of now
    deposit.since = engine.tick;
    const mined = ok<{ quantity: number; deposit_remaining: number }>(engine, p, {
      type: 'mine',
      resourceId: deposit.resource,
    });
    // One tick of regeneration happened before the mine resolved.
    const available = Math.floor(5 + deposit.max * 0.01);
    expect(mined.quantity).toBe(Math.min(available, 2 + Math.floor(deposit.richness / 2)));
    const afterMine = depositRemaining(deposit, engine.tick);
    expect(mined.deposit_remaining).toBe(Math.floor(afterMine));
    for (let i = 0; i < 3; i++) engine.processTick();
    expect(depositRemaining(deposit, engine.tick)).toBeCloseTo(afterMine + deposit.max * 0.03, 6);
    for (let i = 0; i < 200; i++) engine.processTick();
    expect(depositUnits(deposit, engine.tick)).toBe(deposit.max);
  });

  test('an empty deposit gives no_resources until it regenerates', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const poi = miningPoi(engine);
    ok(engine, p, { type: 'travel', targetPoi: poi.id });
    for (const d of poi.deposits) {
      d.remaining = -d.max * 0.01; // empty after the next tick's regeneration too
      d.since = engine.tick;
    }
    expect(codeOf(engine, p, { type: 'mine' })).toBe('no_resources');
    engine.processTick();
    engine.processTick();
    const mined = ok<{ quantity: number }>(engine, p, { type: 'mine' });
    expect(mined.quantity).toBeGreaterThan(0);
  });
});
