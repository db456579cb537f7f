// The status block (get_status, and the tail of every successful action, login and register), in the shape of
// STATUS_DOCKED / STATUS_UNDOCKED / STATUS_IN_TRANSIT in test/fixtures/spacemolt/text-samples.ts. No tick number:
// SpaceMolt's text does not carry one, and a captain must not learn to lean on it.
import type { Engine } from '../engine.js';
import { cargoUsed, type Player } from '../player.js';
import { count, credits, itemName, named, table } from './format.js';

export function statusText(engine: Engine, player: Player): string {
  const system = engine.world.systems.get(player.systemId);
  const systemName = system?.name ?? player.systemId;
  const ship = player.ship;
  const lines = [
    `${player.username} [${player.empire}] | ${credits(player.credits)} | ${systemName}`,
    `Ship: ${named(ship.name, ship.name.toLowerCase())} | Hull: ${ship.hull}/${ship.maxHull} | Speed: ${ship.speed}`,
    `Fuel: ${ship.fuel}/${ship.maxFuel} | Cargo: ${cargoUsed(player)}/${ship.cargoCapacity}`,
  ];
  const transit = player.transit;
  if (transit) {
    const remaining = Math.max(0, transit.arrivesAt - engine.tick);
    const [id, name] = transit.kind === 'jump'
      ? [transit.toSystem, engine.world.systems.get(transit.toSystem)?.name ?? transit.toSystem]
      : [transit.toPoi, engine.world.pois.get(transit.toPoi)?.name ?? transit.toPoi];
    lines.push(`In transit: ${transit.kind} to ${named(name, id)}, ${remaining} tick(s) remaining`);
  } else {
    const poi = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
    const place = poi ? named(poi.name, poi.id) : 'deep space';
    lines.push(`Location: ${place} in ${named(systemName, player.systemId)} | Police: ${system?.policeLevel ?? 0}`);
    if (player.docked && poi) lines.push(`Docked at: ${poi.id}`);
  }
  const cargo = [...player.cargo].filter(([, quantity]) => quantity > 0);
  // An empty hold has no section: `Cargo: 0/70` above already says it.
  if (cargo.length > 0) {
    lines.push(`Cargo (${count(cargo.length, 'item')}):`, ...table(['item', 'qty', 'size'], cargo.map(([item, quantity]) => [itemName(item), quantity, 1])));
  }
  return lines.join('\n');
}
