// A game without a face writes its state as one dashboard line; the game layer reads it into the same observation
// as SpaceMolt's dashboards, and the session reads that (never the line itself).
import { describe, expect, it } from 'vitest';
import { readDashboardLine } from '../../../internal/game/index.js';
import { stateFromText } from '../../../internal/session/index.js';

describe('a one-line text dashboard', () => {
  it('reads credits, fuel, cargo, hull and tick, thousands separators included', () => {
    const line = 'Nova | Sol / Sol Central | Credits: 1,250 | Fuel: 2/100 | Cargo: 12/70 | Hull: 90/100 | Tick 1234';
    expect(readDashboardLine(line)).toEqual({
      player: { credits: 1250 },
      ship: { fuel: 2, max_fuel: 100, cargo_used: 12, cargo_capacity: 70, hull: 90, max_hull: 100 },
      tick: 1234,
    });
    expect(stateFromText(line)).toEqual({
      credits: 1250,
      fuel: 2,
      maxFuel: 100,
      cargoUsed: 12,
      cargoCapacity: 70,
      hull: 90,
      maxHull: 100,
      tick: 1234,
    });
  });

  it('is no state without credits, and only what the line says otherwise', () => {
    expect(readDashboardLine('Fuel: 2/100 | Cargo: 12/70')).toBeUndefined();
    expect(stateFromText('Fuel: 2/100')).toBeUndefined();
    expect(stateFromText('Credits: 7')).toEqual({ credits: 7 });
  });
});
