// The dashboard as JSON (player, ship, location, cargo, tick): the structuredContent minimolt adds only with the
// `structured` option. The text a model reads is the status block in text/status.ts.
import type { MmCargoItem, MmDashboard, MmLocation } from '../spacemolt/index.js';
import type { Engine } from './engine.js';
import { cargoUsed, type Player } from './player.js';

export function location(engine: Engine, player: Player): MmLocation {
  const system = engine.world.systems.get(player.systemId);
  const poi = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  const result: MmLocation = {
    system_id: player.systemId,
    system_name: system?.name ?? player.systemId,
    poi_id: poi?.id ?? null,
    poi_name: poi?.name ?? null,
    poi_type: poi?.type ?? null,
    docked: player.docked,
    police_level: system?.policeLevel ?? 0,
    in_transit: player.transit !== null,
  };
  if (player.transit) {
    result.destination = { system_id: player.transit.toSystem, poi_id: player.transit.toPoi };
    result.ticks_remaining = Math.max(0, player.transit.arrivesAt - engine.tick);
  }
  return result;
}

export function cargoList(player: Player): MmCargoItem[] {
  return [...player.cargo].filter(([, quantity]) => quantity > 0).map(([item_id, quantity]) => ({ item_id, quantity }));
}

export function dashboard(engine: Engine, player: Player): MmDashboard {
  return {
    player: { id: player.id, username: player.username, empire: player.empire, credits: player.credits },
    ship: {
      name: player.ship.name,
      hull: player.ship.hull,
      max_hull: player.ship.maxHull,
      fuel: player.ship.fuel,
      max_fuel: player.ship.maxFuel,
      cargo_used: cargoUsed(player),
      cargo_capacity: player.ship.cargoCapacity,
      speed: player.ship.speed,
    },
    location: location(engine, player),
    cargo: cargoList(player),
    tick: engine.tick,
  };
}
