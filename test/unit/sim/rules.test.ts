// The rules engine against SIM-SPEC: formulas, error codes, one pending action, transit, world shape.
import { describe, expect, test } from 'vitest';
import { BASE_PRICE, CAPITALS, SimError, STARTER_SHIPS } from '../../../internal/sim/index.js';
import {
  jumpFuel,
  jumpTicks,
  mineYield,
  poiDistance,
  travelFuel,
  travelTicks,
} from '../../../internal/spacemolt/index.js';
import { addPlayer, codeOf, miningPoi, newEngine, ok, poisOf, stationOf } from './helpers.js';

describe('world', () => {
  test('capitals, police levels, lanes, POIs and markets follow the spec', () => {
    const engine = newEngine({ systems: 60 });
    const { systems } = engine.world;
    expect(systems.size).toBe(60);
    for (const capital of CAPITALS) {
      const system = systems.get(capital.systemId);
      expect(system?.empire).toBe(capital.empire);
      expect(system?.policeLevel).toBe(100);
      expect(system?.pois.some((p) => p.hasBase)).toBe(true);
    }
    for (const system of systems.values()) {
      expect(system.id).toMatch(/^[a-z0-9_]+$/);
      expect(system.lanes.size).toBeGreaterThanOrEqual(1);
      expect(system.lanes.size).toBeLessThanOrEqual(5);
      expect(system.pois.length).toBeGreaterThanOrEqual(2);
      expect(system.pois.length).toBeLessThanOrEqual(6);
      expect(system.policeLevel).toBe(Math.max(0, 100 - 25 * system.capitalDistance));
      for (const poi of system.pois) {
        for (const d of poi.deposits) {
          expect(d.richness).toBeGreaterThanOrEqual(1);
          expect(d.richness).toBeLessThanOrEqual(10);
          expect(d.max).toBeGreaterThanOrEqual(200);
          expect(d.max).toBeLessThanOrEqual(2000);
        }
        if (poi.deposits.length) expect(poi.deposits.length).toBeLessThanOrEqual(3);
        for (const entry of poi.market?.values() ?? []) {
          const multiplier = entry.equilibrium / BASE_PRICE[entry.item];
          expect(multiplier).toBeGreaterThanOrEqual(0.59);
          expect(multiplier).toBeLessThanOrEqual(1.61);
        }
      }
    }
    // Connected: every system reachable from sol.
    const seen = new Set(['sol']);
    const queue = ['sol'];
    while (queue.length)
      for (const next of systems.get(queue.shift() as string)?.lanes.keys() ?? [])
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
    expect(seen.size).toBe(60);
    expect([...systems.values()].some((s) => s.policeLevel < 50)).toBe(true);
  });

  test('the same seed gives the same world; another seed a different one', () => {
    const a = newEngine({ seed: 7 }).world;
    const b = newEngine({ seed: 7 }).world;
    const c = newEngine({ seed: 8 }).world;
    expect([...a.pois.keys()]).toEqual([...b.pois.keys()]);
    expect([...a.pois.keys()]).not.toEqual([...c.pois.keys()]);
  });
});

describe('players', () => {
  test('new players start docked at their capital with the starter ship', () => {
    const engine = newEngine();
    for (const capital of CAPITALS) {
      const player = engine.register(`p_${capital.empire}`, capital.empire);
      const ship = STARTER_SHIPS[capital.empire];
      expect(player.systemId).toBe(capital.systemId);
      expect(player.docked).toBe(true);
      expect(player.credits).toBe(ship.credits);
      expect(player.ship).toMatchObject({
        name: ship.name,
        hull: ship.hull,
        fuel: ship.fuel,
        cargoCapacity: ship.cargo,
        speed: ship.speed,
      });
      expect(player.password).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test('usernames: valid, unique (username_taken), checked credentials (invalid_credentials)', () => {
    const engine = newEngine();
    const nova = addPlayer(engine);
    expect(() => engine.register('Nova', 'nebula')).toThrow(expect.objectContaining({ code: 'username_taken' }));
    expect(() => engine.register('no', 'nebula')).toThrow(expect.objectContaining({ code: 'invalid_params' }));
    expect(() => engine.register('bad name!', 'nebula')).toThrow(SimError);
    expect(engine.authenticate('Nova', nova.password)).toBe(nova);
    expect(() => engine.authenticate('Nova', 'f'.repeat(64))).toThrow(
      expect.objectContaining({ code: 'invalid_credentials' }),
    );
    expect(() => engine.authenticate('Nobody', nova.password)).toThrow(
      expect.objectContaining({ code: 'invalid_credentials' }),
    );
  });
});

describe('mutations', () => {
  test('undock, dock: not_docked, already_docked, no_base', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    expect(codeOf(engine, p, { type: 'dock' })).toBe('already_docked');
    expect(codeOf(engine, p, { type: 'undock' })).toBe('ok');
    expect(p.docked).toBe(false);
    expect(codeOf(engine, p, { type: 'undock' })).toBe('not_docked');
    expect(codeOf(engine, p, { type: 'sell', itemId: 'iron_ore', quantity: 1 })).toBe('not_docked');
    expect(codeOf(engine, p, { type: 'refuel' })).toBe('not_docked');
    ok(engine, p, { type: 'travel', targetPoi: miningPoi(engine).id });
    expect(codeOf(engine, p, { type: 'dock' })).toBe('no_base');
  });

  test('travel: fuel and ticks formulas, auto-undock, invalid_poi, wrong_system, no_fuel', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const from = stationOf(engine);
    const target = miningPoi(engine);
    const distance = poiDistance(from, target);
    const details = ok<{ fuel_used: number; ticks: number; auto_undocked: boolean; arrived_at: string }>(engine, p, {
      type: 'travel',
      targetPoi: target.id,
    });
    expect(details.fuel_used).toBe(Math.max(1, Math.ceil(distance * 0.7)));
    expect(details.ticks).toBe(Math.max(1, Math.ceil(distance / 1)));
    expect(details.auto_undocked).toBe(true);
    expect(details.arrived_at).toBe(target.id);
    expect(p.ship.fuel).toBe(100 - details.fuel_used);
    expect(p.poiId).toBe(target.id);
    expect(codeOf(engine, p, { type: 'travel', targetPoi: 'nowhere_at_all' })).toBe('invalid_poi');
    expect(codeOf(engine, p, { type: 'travel', targetPoi: stationOf(engine, 'krynn').id })).toBe('wrong_system');
    p.ship.fuel = 0;
    expect(codeOf(engine, p, { type: 'travel', targetPoi: from.id })).toBe('no_fuel');
    expect(travelFuel(0.1)).toBe(1);
    expect(travelFuel(3)).toBe(3);
    expect(travelTicks(2.5, 2)).toBe(2);
    expect(travelTicks(0.2, 1)).toBe(1);
  });

  test('travel blocks for exactly its ticks; mutations meanwhile get in_transit with ticks_remaining; location shows transit', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const target = [...poisOf(engine, 'sol')].sort(
      (a, b) => poiDistance(stationOf(engine), b) - poiDistance(stationOf(engine), a),
    )[0];
    if (!target) throw new Error('no POI');
    const expectedTicks = travelTicks(poiDistance(stationOf(engine), target), 1);
    expect(expectedTicks).toBeGreaterThanOrEqual(2);
    let arrivedAt = -1;
    const start = engine.tick;
    engine.queue(p, { type: 'travel', targetPoi: target.id }, () => {
      arrivedAt = engine.tick;
    });
    expect(p.transit?.arrivesAt).toBe(start + expectedTicks);
    engine.processTick();
    try {
      engine.queue(p, { type: 'dock' }, () => {});
      throw new Error('expected in_transit');
    } catch (error) {
      expect(error).toMatchObject({ code: 'in_transit', extra: { ticks_remaining: expectedTicks - 1 } });
    }
    while (arrivedAt < 0) engine.processTick();
    expect(arrivedAt - start).toBe(expectedTicks);
    expect(p.stats.busyTicks).toBe(expectedTicks);
  });

  test('one pending mutation per player: action_pending names the pending command', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const q = addPlayer(engine, 'Other', 'nebula');
    engine.queue(p, { type: 'undock' }, () => {});
    expect(() => engine.queue(p, { type: 'refuel' }, () => {})).toThrow(
      expect.objectContaining({ code: 'action_pending', extra: { pending: 'undock' } }),
    );
    engine.queue(q, { type: 'undock' }, () => {}); // other players are not blocked
    engine.processTick();
    expect(p.docked).toBe(false);
    expect(q.docked).toBe(false);
    expect(engine.hasWork()).toBe(false);
  });

  test('jump: lane required (not_connected), fuel 5 + floor(cargo/20), ticks max(1, 7 − speed), arrives at the gate', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    const neighbour = [...(engine.world.systems.get('sol')?.lanes.keys() ?? [])][0] as string;
    const far = [...engine.world.systems.values()].find((s) => s.id !== 'sol' && !s.lanes.has('sol'))?.id as string;
    expect(codeOf(engine, p, { type: 'jump', targetSystem: far })).toBe('not_connected');
    expect(codeOf(engine, p, { type: 'jump', targetSystem: 'no_such_system' })).toBe('not_connected');
    p.cargo.set('iron_ore', 45);
    const details = ok<{
      fuel_used: number;
      ticks: number;
      arrived_system: string;
      arrived_poi: string;
      auto_undocked: boolean;
    }>(engine, p, { type: 'jump', targetSystem: neighbour });
    expect(details.fuel_used).toBe(7);
    expect(details.ticks).toBe(6);
    expect(details.auto_undocked).toBe(true);
    expect(details.arrived_system).toBe(neighbour);
    expect(engine.world.pois.get(details.arrived_poi)?.type).toBe('gate');
    expect(p.systemId).toBe(neighbour);
    expect(jumpFuel(19)).toBe(5);
    expect(jumpTicks(2)).toBe(5);
    expect(jumpTicks(9)).toBe(1);
    p.ship.fuel = 6;
    expect(codeOf(engine, p, { type: 'jump', targetSystem: 'sol' })).toBe('no_fuel');
  });

  test('mine: yield formula, xp, depletion; docked, no_resources, no_cargo_space', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    expect(codeOf(engine, p, { type: 'mine' })).toBe('docked');
    ok(engine, p, { type: 'undock' });
    expect(codeOf(engine, p, { type: 'mine' })).toBe('no_resources'); // a station has no deposits
    const poi = miningPoi(engine);
    ok(engine, p, { type: 'travel', targetPoi: poi.id });
    const deposit = poi.deposits[0];
    if (!deposit) throw new Error('no deposit');
    const before = Math.floor(deposit.remaining);
    const details = ok<{ resource_id: string; quantity: number; xp_gained: number; deposit_remaining: number }>(
      engine,
      p,
      { type: 'mine', resourceId: deposit.resource },
    );
    expect(details.quantity).toBe(2 + Math.floor(deposit.richness / 2));
    expect(details.deposit_remaining).toBe(before - details.quantity);
    expect(p.cargo.get(deposit.resource)).toBe(details.quantity);
    expect(p.xp.mining).toBe(details.xp_gained);
    expect(mineYield({ free: 3, remaining: 100, richness: 10, miningLevel: 2 })).toBe(3);
    expect(mineYield({ free: 50, remaining: 4, richness: 10, miningLevel: 0 })).toBe(4);
    expect(mineYield({ free: 50, remaining: 100, richness: 7, miningLevel: 2 })).toBe(7);
    expect(
      codeOf(engine, p, {
        type: 'mine',
        resourceId: 'platinum_ore' === deposit.resource ? 'helium_gas' : 'platinum_ore',
      }),
    ).toBe(
      poi.deposits.some((d) => d.resource === 'platinum_ore' || d.resource === 'helium_gas') ? 'ok' : 'no_resources',
    );
    p.cargo.set('iron_ore', p.ship.cargoCapacity);
    expect(codeOf(engine, p, { type: 'mine' })).toBe('no_cargo_space');
  });

  test('sell and buy: insufficient_cargo, no_credits, no_cargo_space, credits and cargo move', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    expect(codeOf(engine, p, { type: 'sell', itemId: 'iron_ore', quantity: 1 })).toBe('insufficient_cargo');
    p.cargo.set('titanium_ore', 10);
    const sold = ok<{ quantity_sold: number; total_earned: number; average_price: number }>(engine, p, {
      type: 'sell',
      itemId: 'titanium_ore',
      quantity: 10,
    });
    expect(sold.quantity_sold).toBe(10);
    expect(p.credits).toBe(150 + sold.total_earned);
    expect(sold.average_price).toBeCloseTo(sold.total_earned / 10, 2);
    expect(p.cargo.has('titanium_ore')).toBe(false);
    expect(codeOf(engine, p, { type: 'buy', itemId: 'platinum_ore', quantity: 60 })).toBe('no_credits');
    expect(codeOf(engine, p, { type: 'buy', itemId: 'iron_ore', quantity: 71 })).toBe('no_cargo_space');
    const credits = p.credits;
    const bought = ok<{ quantity_bought: number; total_cost: number }>(engine, p, {
      type: 'buy',
      itemId: 'iron_ore',
      quantity: 2,
    });
    expect(p.credits).toBe(credits - bought.total_cost);
    expect(p.cargo.get('iron_ore')).toBe(2);
  });

  test('refuel (2 credits/unit, fills by default, no_credits) and repair (3 credits/hull point)', () => {
    const engine = newEngine();
    const p = addPlayer(engine);
    p.ship.fuel = 60;
    p.ship.hull = 90;
    ok(engine, p, { type: 'refuel', quantity: 10 });
    expect(p.ship.fuel).toBe(70);
    expect(p.credits).toBe(130);
    ok(engine, p, { type: 'refuel' });
    expect(p.ship.fuel).toBe(100);
    expect(p.credits).toBe(70);
    ok(engine, p, { type: 'repair' });
    expect(p.ship.hull).toBe(100);
    expect(p.credits).toBe(40);
    p.ship.fuel = 0;
    p.credits = 1;
    expect(codeOf(engine, p, { type: 'refuel' })).toBe('no_credits');
    expect(codeOf(engine, p, { type: 'refuel', quantity: 50 })).toBe('no_credits');
    p.ship.hull = 50;
    expect(codeOf(engine, p, { type: 'repair' })).toBe('no_credits');
  });
});
