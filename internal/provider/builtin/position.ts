// Where the ship is, on the real server's partial words: its status names the system (by name), says docked or not
// and names the POI only when docked; its action answers say no state at all (`Docked at X.`, `Sold 6 Gold Ore for
// 12cr.`). The autopilot keeps its own reckoning — the POI its last travel reached, the system its last jump reached,
// the hold a mine or sale changed — and a status block, or get_poi, corrects it.
import type { GameObservation, MmCargoItem, MmLocation, MmShip } from '../../spacemolt/index.js';
import { detailsOf, locationSchema } from '../../spacemolt/index.js';
import type { Dashboard, PoiInfo, SystemInfo } from './knowledge.js';
import type { Observed } from './observation.js';

/** A system's police before anything said it: neither lawless nor safe (the real Connections line says no police). */
export const POLICE_UNKNOWN = 50;

interface Known {
  systems: ReadonlyMap<string, SystemInfo>;
  pois: ReadonlyMap<string, PoiInfo>;
}

/**
 * The location the policies read. An undocked ship's POI is the one our own travel left it at (same system), else
 * unknown (null) until get_poi says it. In transit the text names neither the system's id nor its police; the
 * policies look at `in_transit` before they read those, so a location in transit is kept as the text gave it.
 */
export function locate(
  options: Known & { seen: GameObservation['location']; before: MmLocation | undefined },
): MmLocation | undefined {
  const { seen } = options;
  const whole = locationSchema.safeParse(seen);
  if (whole.success) return whole.data;
  if (seen?.in_transit === true) return seen as MmLocation;
  if (!seen?.system_id || seen.docked === undefined) return undefined;
  return fillIn({ ...options, seen: { ...seen, system_id: seen.system_id, docked: seen.docked } });
}

type Seen = NonNullable<GameObservation['location']> & { system_id: string; docked: boolean };

/** What the status left out, from our own reckoning (same system) and what is known of the place. */
function fillIn(options: Known & { seen: Seen; before: MmLocation | undefined }): MmLocation {
  const { seen, before, systems, pois } = options;
  const systemId = seen.system_id;
  const sameSystem = before !== undefined && !before.in_transit && before.system_id === systemId;
  const poiId = seen.poi_id !== undefined ? seen.poi_id : sameSystem ? before.poi_id : null;
  const poi = poiId ? pois.get(poiId) : undefined;
  const known = systems.get(systemId);
  return {
    system_id: systemId,
    system_name: seen.system_name ?? known?.name ?? systemId,
    poi_id: poiId,
    poi_name: seen.poi_name ?? poi?.name ?? null,
    poi_type: seen.poi_type ?? poi?.type ?? (seen.docked ? 'station' : null),
    docked: seen.docked,
    police_level: seen.police_level ?? known?.policeLevel ?? (sameSystem ? before.police_level : POLICE_UNKNOWN),
    in_transit: false,
  };
}

/** A successful action whose answer said no state: the dashboard as the action implies it. */
export function reckonAction(options: Known & { before: Dashboard; observed: Observed }): Dashboard {
  const { before, observed } = options;
  const { op, data } = observed;
  const location = movedTo({ ...options, from: before.location });
  const ship: MmShip = { ...before.ship };
  const player = { ...before.player };
  // Travel and jump answers say the fuel they used (minimolt's words; the real ones are not published).
  const fuelUsed = op === 'travel' || op === 'jump' ? detailsOf(op, data.details)?.fuel_used : undefined;
  if (fuelUsed !== undefined) ship.fuel = Math.max(0, ship.fuel - fuelUsed);
  const cargo = adjustCargo(before.cargo, op, data.details);
  ship.cargo_used = cargo.reduce((sum, c) => sum + c.quantity, 0);
  const sold = op === 'sell' ? detailsOf(op, data.details) : undefined;
  if (sold?.total_earned !== undefined && player.credits !== undefined) player.credits += sold.total_earned;
  return { player, ship, location, cargo };
}

/** Where an action left the ship: docked or not, the POI a travel reached, the system a jump reached. */
function movedTo(options: Known & { from: MmLocation; observed: Observed }): MmLocation {
  const { from, observed, systems, pois } = options;
  const { op, args, data } = observed;
  const target = typeof args.target === 'string' ? args.target : undefined;
  if (op === 'dock') return { ...from, docked: true, poi_type: 'station' };
  if (op === 'undock') return { ...from, docked: false };
  if (op === 'travel') {
    const arrived = detailsOf(op, data.details)?.arrived_at ?? target ?? null;
    const poi = arrived ? pois.get(arrived) : undefined;
    return { ...from, docked: false, poi_id: arrived, poi_name: poi?.name ?? null, poi_type: poi?.type ?? null };
  }
  return op === 'jump' ? jumpedTo({ from, observed, systems, target }) : { ...from };
}

function jumpedTo(options: {
  from: MmLocation;
  observed: Observed;
  systems: Known['systems'];
  target: string | undefined;
}): MmLocation {
  const { from, observed, systems, target } = options;
  const details = detailsOf('jump', observed.data.details);
  const systemId = details?.arrived_system ?? target;
  if (!systemId) return { ...from };
  const system = systems.get(systemId);
  return {
    ...from,
    system_id: systemId,
    system_name: system?.name ?? systemId,
    police_level: system?.policeLevel ?? from.police_level,
    docked: false,
    poi_id: details?.arrived_poi ?? null,
    poi_name: null,
    poi_type: null,
  };
}

/** A mine or sell whose status block had no cargo table: the hold as before, moved by what the action says. */
export function adjustCargo(cargo: MmCargoItem[], op: Observed['op'], details: unknown): MmCargoItem[] {
  const mined = op === 'mine' ? detailsOf(op, details) : undefined;
  const sold = op === 'sell' ? detailsOf(op, details) : undefined;
  const moved = mined
    ? { item: mined.resource_id, delta: mined.quantity }
    : sold
      ? { item: sold.item_id, delta: -sold.quantity_sold }
      : undefined;
  if (!moved) return cargo;
  const held = cargo.find((c) => c.item_id === moved.item)?.quantity ?? 0;
  const rest = cargo.filter((c) => c.item_id !== moved.item);
  const quantity = held + moved.delta;
  return quantity > 0 ? [...rest, { item_id: moved.item, quantity }] : rest;
}

/**
 * Whether an action's answer says all it changed, so the autopilot's reckoning is as good as a status: docking and
 * undocking, a travel that says where it arrived and the fuel it used, a mine that says what it mined, a sale that
 * says what it earned. Anything else (a jump, a refuel, a repair, an answer that did not say) is confirmed by a status.
 */
export function fullyReckoned(observed: Observed): boolean {
  const { op, data } = observed;
  if (op === 'dock' || op === 'undock') return true;
  if (op === 'travel') {
    const details = detailsOf(op, data.details);
    return details?.arrived_at !== undefined && details.fuel_used !== undefined;
  }
  if (op === 'mine') return detailsOf(op, data.details)?.quantity !== undefined;
  if (op === 'sell') return detailsOf(op, data.details)?.total_earned !== undefined;
  return false;
}
