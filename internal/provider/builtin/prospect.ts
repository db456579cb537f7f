// Prospecting: get_system and get_poi describe only where the ship is, so before committing to a mine → sell loop the
// autopilot goes and looks. Candidates are systems the map says have a station, reached through lawful space (police
// 50+) within a few jumps; rarer ores are more common far from capitals, so low-police systems are looked at first.
// In each, it visits every mining POI (get_poi there) and docks at the station (view_market). It stops once a plan
// pays well, when nothing is left to look at, or when the time set aside for it is spent.
import type { Dashboard, Knowledge, SystemInfo } from './knowledge.js';
import { assumedPolice, isMiningPoi, miningKnown, type PoiInfo } from './knowledge.js';
import { choosePlan, knownDistance } from './plan.js';
import { jumpFuel, travelFuel } from '../../spacemolt/index.js';
import type { PlannedCall } from './survey.js';

export interface Step {
  call: PlannedCall;
  rationale: string;
  intent: string;
}

/** Candidate systems at most this many jumps away (through lawful space). */
export const PROSPECT_MAX_JUMPS = 3;
/** No prospecting after this much of the autopilot's clock (about ticks). */
export const PROSPECT_BUDGET = 1000;
/** A plan at least this many credits per tick is good enough: stop looking. */
export const GOOD_RATE = 130;
/** Jumps one step of police (25) below 100 is worth: a police-50 system two jumps off beats a capital next door. */
const POLICE_STEP_WORTH = 1.5;
/** Jumps a system the map could not say has a station is worth less than one it did. */
const UNKNOWN_STATION_WORTH = 1;
/** Prospecting stops when fuel plus the fuel the credits buy falls under this. */
export const PROSPECT_FUEL_FLOOR = 70;
/** Fuel kept for the in-system travel to a station when a jump leaves the ship at a gate. */
const TRAVEL_MARGIN = 5;

/** Lawful-space paths from `from` (police 50+ on every system after it), up to `maxJumps`. */
export function lawfulPaths(knowledge: Knowledge, from: string, maxJumps: number): Map<string, string[]> {
  const paths = new Map<string, string[]>([[from, [from]]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    const path = paths.get(current) as string[];
    if (path.length - 1 >= maxJumps) continue;
    for (const next of [...(knowledge.systems.get(current)?.connections ?? [])].sort()) {
      if (paths.has(next) || assumedPolice(knowledge.systems.get(next)) < 50) continue;
      paths.set(next, [...path, next]);
      queue.push(next);
    }
  }
  return paths;
}

/** Whether everything worth knowing in a system is known: its POIs, every mining POI's deposits, its markets. */
export function prospected(knowledge: Knowledge, systemId: string): boolean {
  if (!knowledge.systems.get(systemId)?.pois) return false;
  return knowledge
    .poisIn(systemId)
    .every((p) => (isMiningPoi(p) ? miningKnown(p) : !p.hasBase || marketLooked(knowledge, p)));
}

/** A station's market was looked at, or looking teaches nothing now (market answers cannot be read lately). */
function marketLooked(knowledge: Knowledge, station: PoiInfo): boolean {
  return knowledge.markets.has(station.id) || station.surveyed === true || knowledge.unreadableLately('view_market');
}

/**
 * The next system to prospect and the path there, best score first (fewest jumps, lowest police). Candidates lie
 * within PROSPECT_MAX_JUMPS of `home`, where the look began: without a map, lanes are learnt as the ship goes, and a
 * look measured from wherever the ship is would never end.
 */
export function prospectTarget(
  knowledge: Knowledge,
  from: string,
  home: string = from,
): { id: string; path: string[] } | undefined {
  const near = home === from ? undefined : lawfulPaths(knowledge, home, PROSPECT_MAX_JUMPS);
  let best: { id: string; path: string[]; score: number } | undefined;
  for (const [id, path] of lawfulPaths(knowledge, from, PROSPECT_MAX_JUMPS)) {
    if (near && !near.has(id)) continue;
    const system = knowledge.systems.get(id);
    // Without a readable map nobody said which systems have a station: one not known to lack one is worth a look
    // (a jump, then get_system), though less than one known to have one.
    const unknownStation = system?.hasStation === undefined && !system?.pois;
    if (!system || system.hasStation === false || (unknownStation && knowledge.mapKnown) || prospected(knowledge, id))
      continue;
    const score =
      path.length -
      1 +
      ((assumedPolice(system) - 50) / 25) * POLICE_STEP_WORTH +
      (unknownStation ? UNKNOWN_STATION_WORTH : 0);
    if (!best || score < best.score || (score === best.score && id < best.id)) best = { id, path, score };
  }
  return best && { id: best.id, path: best.path };
}

/** Credits that pay for another look around once the first one ended on a poor plan. */
export const RESUME_CREDITS = 500;

/** Whether to look around again: docked with an empty hold, credits to spare, and the best plan still poor. */
export function resumeProspecting(knowledge: Knowledge, dashboard: Dashboard, avoid: ReadonlySet<string>): boolean {
  const { location, cargo, player } = dashboard;
  if (!location.docked || cargo.length > 0 || player.credits < RESUME_CREDITS) return false;
  return prospectingOpen(knowledge, dashboard, avoid);
}

/**
 * Whether prospecting is still worth it; once it is not, it stays over. Where markets cannot be read, looking cannot
 * tell a good plan from a guessed one: a plan half as good as GOOD_RATE by the guess ends the look (its sales will
 * say what the station really pays).
 */
export function prospectingOpen(
  knowledge: Knowledge,
  dashboard: Dashboard,
  avoid: ReadonlySet<string>,
  home?: string,
): boolean {
  if (knowledge.clock > PROSPECT_BUDGET) return false;
  // Fuel in the tank and what the credits would buy: prospecting must leave enough to start the loop it finds.
  if (dashboard.ship.fuel + dashboard.player.credits / 2 < PROSPECT_FUEL_FLOOR) return false;
  const plan = choosePlan({ knowledge, dashboard, avoid, safeOnly: true });
  const bar = knowledge.unreadableLately('view_market') ? GOOD_RATE / 2 : GOOD_RATE;
  if (plan && plan.rate >= bar) return false;
  const here = dashboard.location.system_id;
  return !prospected(knowledge, here) && knowledge.systems.get(here)?.hasStation === true
    ? true
    : prospectTarget(knowledge, here, home) !== undefined;
}

/** The next prospecting action, or undefined when there is nothing (safe) left to do. */
export function prospectStep(knowledge: Knowledge, dashboard: Dashboard, home?: string): Step | undefined {
  const here = dashboard.location.system_id;
  const system = knowledge.systems.get(here);
  if (system?.pois && system.hasStation && !prospected(knowledge, here))
    return prospectSystem(knowledge, dashboard, system, home);
  return prospectJump(knowledge, dashboard, home);
}

/** Looking around a system with a station: its unseen mining POIs' deposits, then its station's market; then on to
 * the next system. Undefined when docked at the station with its market still unread. */
function prospectSystem(
  knowledge: Knowledge,
  dashboard: Dashboard,
  system: SystemInfo,
  home: string | undefined,
): Step | undefined {
  const { location, ship } = dashboard;
  const at = location.poi_id ?? '';
  const pois = knowledge.poisIn(location.system_id);
  const here = knowledge.pois.get(at);
  // At a mining POI whose deposits could not be read (get_poi gave nothing): one mine says what it yields.
  if (here && isMiningPoi(here) && !miningKnown(here) && !location.docked && !knowledge.mayAsk('get_poi', {})) {
    if (ship.cargo_used < ship.cargo_capacity)
      return {
        call: { op: 'mine', args: {} },
        rationale: `Prospecting ${system.name}: its deposits could not be read, so one mine at ${here.name} to see what it yields.`,
        intent: `prospecting ${system.name}`,
      };
  }
  const unseen = pois
    .filter((p) => isMiningPoi(p) && !miningKnown(p) && p.id !== at)
    .sort(
      (a, b) => knownDistance(knowledge, at, a.id) - knownDistance(knowledge, at, b.id) || a.id.localeCompare(b.id),
    )[0];
  const station = pois.find((p) => p.hasBase && !marketLooked(knowledge, p)) ?? pois.find((p) => p.hasBase);
  const fuelToStation = station ? travelFuel(knownDistance(knowledge, at, station.id)) : 0;
  if (
    unseen &&
    unseen.id !== at &&
    ship.fuel >= travelFuel(knownDistance(knowledge, at, unseen.id)) + fuelToStation + 2
  ) {
    return {
      call: { op: 'travel', args: { target: unseen.id } },
      rationale: `Prospecting ${system.name}: travelling to ${unseen.name} to see its deposits.`,
      intent: `prospecting ${system.name}`,
    };
  }
  if (station && !marketLooked(knowledge, station)) {
    if (at === station.id) {
      if (location.docked) return undefined;
      return {
        call: { op: 'dock', args: {} },
        rationale: `Prospecting ${system.name}: docking at ${station.name} to see its market.`,
        intent: `prospecting ${system.name}`,
      };
    }
    return {
      call: { op: 'travel', args: { target: station.id } },
      rationale: `Prospecting ${system.name}: travelling to ${station.name} to see its market.`,
      intent: `prospecting ${system.name}`,
    };
  }
  return prospectJump(knowledge, dashboard, home);
}

/** A jump toward the nearest system worth prospecting, with fuel kept to reach a station wherever it leads. */
function prospectJump(knowledge: Knowledge, dashboard: Dashboard, home: string | undefined): Step | undefined {
  const { ship } = dashboard;
  const target = prospectTarget(knowledge, dashboard.location.system_id, home);
  const hop = target?.path[1];
  if (!target || !hop) return undefined;
  // Keep enough to reach a station from wherever the jump leads.
  const need = jumpFuel(ship.cargo_used) * target.path.length + TRAVEL_MARGIN;
  if (ship.fuel < need) return undefined;
  const name = knowledge.systems.get(target.id)?.name ?? target.id;
  return {
    call: { op: 'jump', args: { target: hop } },
    rationale: `Prospecting: jumping to ${knowledge.systems.get(hop)?.name ?? hop} to look at ${name} (${lookDescription(knowledge.systems.get(target.id))}).`,
    intent: `prospecting ${name}`,
  };
}

/** What is known of a system looked at: its station and police, each "unknown" when nothing said it. */
function lookDescription(system: SystemInfo | undefined): string {
  const station = system?.hasStation === true ? 'station' : 'station unknown';
  const police = system?.policeLevel === undefined ? 'police unknown' : `police ${system.policeLevel}`;
  return `${station}, ${police}`;
}
