// What the autopilot asks before it acts, and where it goes to look. SpaceMolt describes only the place the ship is
// (get_system and get_poi take no id), so knowledge of a system is gathered by going there: the map gives the lanes,
// police and which systems have a station; the rest is surveyed on the spot.
import type { GameOp, OpArgs } from '../../spacemolt/index.js';
import { assumedPolice, isMiningPoi, type Dashboard, type Knowledge } from './knowledge.js';

export interface PlannedCall {
  op: GameOp;
  args: OpArgs;
}

/** The queries that fill a gap in what is known about the map and the place the ship is at. */
export function missingKnowledge(knowledge: Knowledge, dashboard: Dashboard, ops: ReadonlySet<GameOp>): PlannedCall[] {
  const calls: PlannedCall[] = [];
  const add = (op: GameOp): void => {
    if (ops.has(op) && knowledge.mayAsk(op, {})) calls.push({ op, args: {} });
  };
  const { location } = dashboard;
  if (!knowledge.mapKnown) add('get_map');
  if (!knowledge.systems.get(location.system_id)?.pois) add('get_system');
  const at = location.poi_id ? knowledge.pois.get(location.poi_id) : undefined;
  // The real status never names the POI while undocked: get_poi does (and its deposits).
  if ((at && isMiningPoi(at) && !at.deposits) || (!location.poi_id && !location.docked && !location.in_transit))
    add('get_poi');
  if (location.docked && location.poi_id && marketStale(knowledge, location.poi_id, dashboard.cargo.length > 0))
    add('view_market');
  // A load whose items no answer listed (a status without its hold table): get_cargo lists them.
  if (!dashboard.cargoKnown && dashboard.ship.cargo_used > 0 && !location.in_transit) add('get_cargo');
  return calls;
}

/** Steps of the autopilot's clock after which a market seen before is looked at again before selling into it. */
const MARKET_FRESH_STEPS = 20;

/** No market view here yet, or (with something to sell) an old one: look before selling. */
function marketStale(knowledge: Knowledge, poiId: string, selling: boolean): boolean {
  const market = knowledge.markets.get(poiId);
  if (market?.seenAt === undefined) return true;
  return selling && knowledge.clock - market.seenAt > MARKET_FRESH_STEPS;
}

/**
 * The path to the nearest system worth surveying: not surveyed yet, not known to lack a station. Lawful space only
 * when `lawfulOnly` (every system on the way police 50+). Undefined when none is known.
 */
export function scoutPath(knowledge: Knowledge, from: string, lawfulOnly: boolean): string[] | undefined {
  const previous = new Map<string, string>([[from, from]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    const system = knowledge.systems.get(current);
    if (current !== from && system && !system.pois && system.hasStation !== false) {
      const path = [current];
      while (path[0] !== from) path.unshift(previous.get(path[0] as string) as string);
      return path;
    }
    for (const next of [...(system?.connections ?? [])].sort()) {
      if (previous.has(next)) continue;
      if (lawfulOnly && assumedPolice(knowledge.systems.get(next)) < 50) continue;
      previous.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}
