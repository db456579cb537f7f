// The autopilot's side of the dangers a fleet shares. minimolt's (and SpaceMolt's) danger is the pirate ambush: an
// undocked ship in a system with police below 50 may lose 10–40 hull a tick, and at 0 it is destroyed and respawns at
// its capital. A captain that sees its hull drop (or its ship destroyed) tells the fleet where; the other captains'
// autopilots leave that system's mining spots alone while the danger is recent, as they leave alone a place in their
// own `avoid` list. Stations stay usable: a docked ship is out of the pirates' reach, and a trip to sell is short
// where a mining loop sits undocked for many ticks. Without a fleet port nothing here is called.
import type { SharedDanger } from '../../spacemolt/index.js';
import { isRecord } from '../../shared/index.js';
import type { Dashboard, Knowledge } from './knowledge.js';

/** The harm one new status reveals: hull lost since the last one (repairs only ever raise it). */
export function hullLoss(
  before: Dashboard | undefined,
  after: Dashboard,
): { systemId: string; what: string } | undefined {
  if (!before || after.ship.hull >= before.ship.hull) return undefined;
  // A repair, or a new ship after a respawn, is not harm; a drop is, wherever it happened: pirates strike undocked,
  // so the lawless one of the two places the ship was in is the likelier (the later one when both are).
  const lost = before.ship.hull - after.ship.hull;
  const systemId =
    before.location.police_level < after.location.police_level ? before.location.system_id : after.location.system_id;
  return { systemId, what: `${lost} hull lost` };
}

/** A travel or jump answered with the ship destroyed (minimolt: `destroyed: true` in its details). */
export function destroyedIn(
  details: unknown,
  before: Dashboard | undefined,
): { systemId: string; what: string } | undefined {
  if (!isRecord(details) || details.destroyed !== true || !before) return undefined;
  return { systemId: before.location.system_id, what: 'ship destroyed' };
}

/** Steps of the autopilot's clock a shared danger keeps a POI in `avoid` (renewed at every decision while recent). */
const DANGER_HOLD = 1;

/**
 * Puts every POI without a base of a system where a fleet-mate recently came to harm into `avoid`, as the autopilot's
 * own refusals are. The danger lapses at the fleet's end (its age), so the hold here is one step, renewed while it lasts.
 */
export function avoidDangers(options: {
  knowledge: Knowledge;
  dangers: readonly SharedDanger[];
  avoid: Map<string, number>;
}): number {
  const { knowledge, dangers, avoid } = options;
  let added = 0;
  const until = knowledge.clock + DANGER_HOLD;
  for (const danger of dangers) {
    for (const poiId of knowledge.systems.get(danger.systemId)?.pois ?? []) {
      if (knowledge.pois.get(poiId)?.hasBase !== false) continue;
      if ((avoid.get(poiId) ?? -Infinity) < until) avoid.set(poiId, until);
      added += 1;
    }
  }
  return added;
}
