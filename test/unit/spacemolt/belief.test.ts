// Rule 20 at its source: the ship's belief. What no answer said is unknown (never false or 0); the game's word beats
// the captain's reckoning; an action whose outcome is not known forgets what it may have changed; a POI is never
// read with a system it is not in.
import { describe, expect, it } from 'vitest';
import { ShipBelief, type BeliefInput, type GameObservation } from '../../../internal/spacemolt/index.js';

const docked: GameObservation = {
  player: { username: 'vega', empire: 'solarian', credits: 500 },
  ship: {
    name: 'Theoria',
    hull: 100,
    max_hull: 100,
    fuel: 80,
    max_fuel: 100,
    cargo_used: 0,
    cargo_capacity: 70,
    speed: 2,
  },
  location: {
    system_id: 'sol',
    system_name: 'Sol',
    poi_id: 'sol_central',
    docked: true,
    police_level: 100,
    in_transit: false,
  },
};

function told(belief: ShipBelief, observation: GameObservation, op: BeliefInput['op'] = 'get_status', at = 1): void {
  belief.learn({ op, observation, isError: false, at });
}

const known = { unknownPolice: 50 };

describe('the ship belief', () => {
  it('knows nothing before an answer, and what a status says after it, told', () => {
    const belief = new ShipBelief();
    expect(belief.player()).toBeUndefined();
    expect(belief.ship()).toBeUndefined();
    expect(belief.location(known)).toBeUndefined();
    told(belief, docked);
    expect(belief.location(known)).toMatchObject({ system_id: 'sol', poi_id: 'sol_central', docked: true });
    expect(belief.all.credits).toMatchObject({ value: 500, origin: 'told', op: 'get_status', at: 1 });
    expect(belief.unconfirmed).toBe(false);
  });

  it('leaves a field no answer carried unknown: no police column is not police 0, no hold table not an empty hold', () => {
    const belief = new ShipBelief();
    const { police_level: _police, ...withoutPolice } = docked.location!;
    told(belief, { ...docked, ship: { ...docked.ship, cargo_used: 12 }, location: withoutPolice });
    expect(belief.all.police).toBeUndefined();
    // The caller's stand-in for an unknown police, never a 0 read from nothing.
    expect(belief.location(known)?.police_level).toBe(50);
    // 12 units aboard and no table listing them: the items are not known (not "none").
    expect(belief.cargo()).toBeUndefined();
    expect(belief.hold()).toEqual({ items: [], known: false });
  });

  it('reckons an accepted action whose answer says no state, and a status confirms it', () => {
    const belief = new ShipBelief();
    told(belief, { ...docked, cargo: [] });
    belief.learn({ op: 'undock', observation: { op: 'undock' }, isError: false, at: 2 });
    belief.learn({
      op: 'travel',
      args: { target: 'sol_belt' },
      observation: { op: 'travel', details: { arrived_at: 'sol_belt', fuel_used: 2, ticks: 2 } },
      isError: false,
      at: 4,
    });
    belief.learn({
      op: 'mine',
      observation: { op: 'mine', details: { resource_id: 'iron_ore', quantity: 7 } },
      isError: false,
      at: 5,
    });
    expect(belief.location(known)).toMatchObject({ poi_id: 'sol_belt', docked: false });
    expect(belief.all.poi).toMatchObject({ origin: 'reckoned', op: 'travel' });
    expect(belief.ship()).toMatchObject({ fuel: 78, cargo_used: 7 });
    expect(belief.cargo()).toEqual([{ item_id: 'iron_ore', quantity: 7 }]);
  });

  it('takes the game\'s word over its reckoning: "already at X" places the ship at X', () => {
    const belief = new ShipBelief();
    told(belief, { ...docked, location: { ...docked.location, docked: false, poi_id: 'sol_central' } });
    belief.learn({
      op: 'travel',
      args: { target: 'sol_belt' },
      observation: { op: 'travel', location: { poi_id: 'sol_belt', in_transit: false } },
      isError: true,
      code: 'invalid_poi',
      at: 3,
    });
    expect(belief.location(known)?.poi_id).toBe('sol_belt');
    expect(belief.all.poi).toMatchObject({ origin: 'refusal' });
    expect(belief.unconfirmed).toBe(true);
  });

  it('takes "mid-travel" and "not docked" refusals as the situation they state', () => {
    const belief = new ShipBelief();
    told(belief, docked);
    belief.learn({
      op: 'sell',
      observation: { op: 'sell', location: { docked: false } },
      isError: true,
      code: 'not_docked',
      at: 2,
    });
    expect(belief.location(known)?.docked).toBe(false);
    belief.learn({
      op: 'mine',
      observation: { op: 'mine', location: { in_transit: true, docked: false, poi_id: null } },
      isError: true,
      code: 'in_transit',
      at: 3,
    });
    expect(belief.location(known)).toMatchObject({ in_transit: true, poi_id: null });
  });

  it('forgets what a cut-off action may have changed: a cancelled travel leaves the POI and docking unknown', () => {
    const belief = new ShipBelief();
    told(belief, docked);
    belief.learn({
      op: 'travel',
      args: { target: 'sol_belt' },
      observation: {},
      isError: true,
      code: 'cancelled',
      at: 2,
    });
    expect(belief.all.poi).toBeUndefined();
    expect(belief.all.docked).toBeUndefined();
    // Not enough to act on: the captain reads its state before the next action.
    expect(belief.location(known)).toBeUndefined();
    expect(belief.unconfirmed).toBe(true);
    // A cancelled query changes nothing.
    const other = new ShipBelief();
    told(other, docked);
    other.learn({ op: 'get_system', observation: {}, isError: true, code: 'cancelled', at: 2 });
    expect(other.location(known)?.poi_id).toBe('sol_central');
  });

  it('never pairs a POI with a system it is not in: a status in another system naming no POI leaves it unknown', () => {
    const belief = new ShipBelief();
    told(belief, docked);
    const { poi_id: _poi, ...elsewhere } = docked.location!;
    told(belief, {
      ...docked,
      location: { ...elsewhere, system_id: 'vexuth_major', system_name: 'Vexuth Major', docked: false },
    });
    expect(belief.location(known)).toMatchObject({ system_id: 'vexuth_major', poi_id: null });
    expect(belief.poiHere()).toBeUndefined();
  });

  it('assumes, never zeroes, the ship numbers an answer left out (a drifted status without speed)', () => {
    const belief = new ShipBelief();
    const { speed: _speed, max_hull: _maxHull, ...ship } = docked.ship!;
    told(belief, { ...docked, ship });
    expect(belief.ship()).toMatchObject({ speed: 1, hull: 100, max_hull: 100 });
    expect(belief.assumed()).toEqual(['max_hull', 'speed']);
  });
});
