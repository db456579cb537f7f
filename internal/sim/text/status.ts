// get_status in the real server's shape (test/fixtures/spacemolt/real: mcp-probe get_status docked, poi-deposits-probe
// get_status at a belt): header `Name [empire] | 2,750cr | System Name`, the ship's `Key: a/b` pairs, `Docked at:` only
// when docked, `Security:` words, `Connections:` lane ids, then tables (Resources at a mining POI, Cargo, Skills).
// minimolt has no shields, modules, nearby players, missions or standings, so those parts are left out. No tick
// number: SpaceMolt's status does not carry one.
import { securityText } from '../../spacemolt/index.js';
import { depositUnits } from '../economy.js';
import type { Engine } from '../engine.js';
import { cargoUsed, levelFor, nextLevelXp, SKILL_NAMES, type Player } from '../player.js';
import type { Poi } from '../world.js';
import { count, credits, itemName, named, table } from './format.js';

export const RESOURCES_HEADER = ['resource', 'richness', 'remaining', 'supports_power'] as const;

/** `Resources (n):` and its table, as get_status and get_poi both write it; nothing for a POI without deposits. */
export function resourcesSection(poi: Poi, tick: number): string[] {
  if (poi.deposits.length === 0) return [];
  // supports_power: every minimolt resource can be mined with the starter laser, which is what the real 1 says.
  const rows = poi.deposits.map((d) => [itemName(d.resource), d.richness, depositUnits(d, tick), 1]);
  return [`Resources (${poi.deposits.length}):`, ...table(RESOURCES_HEADER, rows)];
}

function transitLine(engine: Engine, player: Player): string | undefined {
  const transit = player.transit;
  if (!transit) return undefined;
  const remaining = Math.max(0, transit.arrivesAt - engine.tick);
  const [id, name] =
    transit.kind === 'jump'
      ? [transit.toSystem, engine.world.systems.get(transit.toSystem)?.name ?? transit.toSystem]
      : [transit.toPoi, engine.world.pois.get(transit.toPoi)?.name ?? transit.toPoi];
  // Ours: no capture shows the real server's status while a ship is under way.
  return `In transit: ${transit.kind} to ${named(name, id)}, ${remaining} tick(s) remaining`;
}

export function statusText(engine: Engine, player: Player): string {
  // While jumping, systemId is still the departure system (it changes on arrival): the header names where you left.
  const system = engine.world.systems.get(player.systemId);
  const ship = player.ship;
  const lines = [
    `${player.username} [${player.empire}] | ${credits(player.credits)} | ${system?.name ?? player.systemId}`,
    `Ship: ${named(ship.name, ship.name.toLowerCase())} | Hull: ${ship.hull}/${ship.maxHull} | Speed: ${ship.speed}`,
    `Fuel: ${ship.fuel}/${ship.maxFuel} | Cargo: ${cargoUsed(player)}/${ship.cargoCapacity}`,
  ];
  const poi = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  const transit = transitLine(engine, player);
  if (transit) lines.push(transit);
  if (player.docked && poi) lines.push(`Docked at: ${poi.id}`);
  // Between systems a jump has no security or lanes of its own; a travel stays inside its system.
  if (system && player.transit?.kind !== 'jump') {
    lines.push(`Security: ${securityText(system.policeLevel)}`, `Connections: ${[...system.lanes.keys()].join(', ')}`);
  }
  if (poi && !player.docked && !player.transit) lines.push(...resourcesSection(poi, engine.tick));
  const cargo = [...player.cargo].filter(([, quantity]) => quantity > 0);
  // An empty hold has no section: `Cargo: 0/70` above already says it.
  if (cargo.length > 0) {
    lines.push(
      `Cargo (${count(cargo.length, 'item')}):`,
      ...table(
        ['item', 'qty', 'size'],
        cargo.map(([item, quantity]) => [itemName(item), quantity, 1]),
      ),
    );
  }
  lines.push(
    `Skills (${SKILL_NAMES.length}):`,
    ...table(
      ['skill', 'level', 'xp', 'next_level'],
      SKILL_NAMES.map((name) => [name, levelFor(player.xp[name]), player.xp[name], nextLevelXp(player.xp[name])]),
    ),
  );
  return lines.join('\n');
}
