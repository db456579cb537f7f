// builtin/explore: the autopilot's explore mode, used when its goal asks it to explore / visit systems. Each round it
// jumps toward the nearest unvisited system (lawful space preferred unless the hull is healthy), keeps enough fuel to
// always reach a station, refuels and repairs docked at stations, and flees lawless space on a low hull. When there is
// nothing left to explore, or no credits to buy the fuel it needs, it hands the round to the mining policy.
import type { Message } from '../../shared/index.js';
import type { GameOp } from '../../spacemolt/index.js';
import {
  assumedPolice,
  isMiningPoi,
  type Dashboard,
  type Knowledge,
  type PoiInfo,
  type SystemInfo,
} from './knowledge.js';
import { bestResource, knownDistance } from './plan.js';
import { jumpFuel, travelFuel } from '../../spacemolt/index.js';
import {
  MAX_MUTATIONS_PER_TURN,
  decide,
  mutationDecision,
  type DecideOptions,
  type Decision,
  type PlannedCall,
  type PolicyState,
} from './policy.js';
import { pickTarget, routeToStation, stationJumps } from './routes.js';

/** Repair below this share of max hull (when a station is at hand). */
const REPAIR_BELOW = 0.6;
/** At or above this share of max hull, lawless systems are fine to cross. */
const HEALTHY = 0.8;
/** Fuel kept for the travel from a system's gate to its station when the distance is not known (max ~6 AU). */
const TRAVEL_MARGIN = 5;
/** Passing a station with less than this share of the tank: top up while it is cheap to. */
const TOP_UP_BELOW = 0.4;
/** Credits kept back for repairs unless the tank is nearly dry. */
const REPAIR_RESERVE = 60;

const GOAL_LINE = /(?:^|\n)[^\n]*?\bGoal:\s*([^\n]*)/i;
const SYSTEM_GOAL = /\bYour goal:\s*([^\n]*)/i;

/** The goal in force: the latest user message's `Goal: …`, else the system prompt's `Your goal: …`. */
export function goalText(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i] as Message;
    if (message.role !== 'user') continue;
    const match = GOAL_LINE.exec(message.content);
    if (match?.[1]) return match[1].trim();
  }
  for (const message of messages) {
    if (message.role !== 'system') continue;
    const match = SYSTEM_GOAL.exec(message.content);
    if (match?.[1]) return match[1].trim();
  }
  return undefined;
}

/** True when the goal is about exploring: "explore", "visit … systems", "new/distinct/unvisited systems". */
export function isExploreGoal(goal: string | undefined): boolean {
  if (!goal) return false;
  return (
    /\bexplor/i.test(goal) ||
    /\bvisit\w*\b[^.;]*\bsystems?\b/i.test(goal) ||
    /\b(new|distinct|unvisited|unexplored)\s+(star\s+)?systems?\b/i.test(goal)
  );
}

interface Step {
  call: PlannedCall;
  rationale: string;
  intent: string;
}

type Outcome = Step | { queries: PlannedCall[] } | { grind: true } | { end: string };

export function decideExplore(options: DecideOptions): Decision {
  const { knowledge, state, turn, ops } = options;
  const dashboard = knowledge.dashboard;
  // No status, in transit, budget spent: the mining policy answers those exactly the same way.
  if (!dashboard || dashboard.location.in_transit || turn.mutations >= MAX_MUTATIONS_PER_TURN) return decide(options);
  knowledge.visited.add(dashboard.location.system_id);

  const outcome = exploreStep(knowledge, state, dashboard, ops);
  if ('grind' in outcome) return decide(options);
  if ('end' in outcome) return { kind: 'end', reason: outcome.end };
  if ('queries' in outcome) {
    const what = [...new Set(outcome.queries.map((q) => q.op))].join(', ');
    return { kind: 'calls', calls: outcome.queries, rationale: `Charting (${what}) before moving on.` };
  }
  return mutationDecision({ step: outcome, state, now: knowledge.clock, docked: dashboard.location.docked, ops, turn });
}

function exploreStep(
  knowledge: Knowledge,
  state: PolicyState,
  dashboard: Dashboard,
  ops: ReadonlySet<GameOp>,
): Outcome {
  const charting = chartingQuery(knowledge, dashboard, ops);
  if (charting) return charting;
  const round = reckonRound(knowledge, state, dashboard, ops);
  if (dashboard.location.docked) {
    const step = dockedStep(round);
    if (step) return step;
  }
  const hull = hullStep(round);
  if (hull) return hull;

  const { target, hop, jf } = round;
  if (!target || hop === undefined) return { grind: true };
  const jump = exploreJump(knowledge, dashboard, target.id, hop);
  const fuel = fuelStep(round, jump);
  if (fuel) return fuel;
  const { ship } = dashboard;
  if (ship.fuel < jf)
    return { end: `Fuel ${ship.fuel}/${ship.max_fuel} is not enough for a jump and no station is reachable.` };
  return jump;
}

/** The map, then the current system's layout: asked before any move (unless the game refused them before). */
function chartingQuery(knowledge: Knowledge, dashboard: Dashboard, ops: ReadonlySet<GameOp>): Outcome | undefined {
  const query = (op: GameOp): Outcome | undefined =>
    ops.has(op) && knowledge.mayAsk(op, {}) ? { queries: [{ op, args: {} }] } : undefined;
  if (!knowledge.mapKnown) {
    const q = query('get_map');
    if (q) return q;
  }
  const system = knowledge.systems.get(dashboard.location.system_id);
  // The current system's POIs matter only where there is a station to use (or when the map said nothing).
  if (!system?.pois && system?.hasStation !== false) return query('get_system');
  return undefined;
}

/** What one explore round reckons before choosing: the ship's condition, the station here, and the next hop. */
interface Round {
  knowledge: Knowledge;
  state: PolicyState;
  dashboard: Dashboard;
  ops: ReadonlySet<GameOp>;
  system: SystemInfo | undefined;
  station: PoiInfo | undefined;
  broke: boolean;
  hullLow: boolean;
  lawless: boolean;
  /** Fuel for one jump with this hold. */
  jf: number;
  target: ReturnType<typeof pickTarget>;
  hop: string | undefined;
  /** Fuel the next hop needs, with enough left to reach a station from where it lands. */
  needed: number;
  lowFuel: boolean;
}

function reckonRound(knowledge: Knowledge, state: PolicyState, dashboard: Dashboard, ops: ReadonlySet<GameOp>): Round {
  const { ship, location } = dashboard;
  const here = location.system_id;
  const jf = jumpFuel(ship.cargo_used);
  const healthy = ship.hull >= ship.max_hull * HEALTHY;
  const target = pickTarget(knowledge, here, healthy);
  const hop = target?.path[1];
  // After the jump there must still be fuel to reach a station (and its POI) from where it lands.
  const needed = hop === undefined ? 0 : jf * (1 + stationJumps(knowledge, hop)) + TRAVEL_MARGIN;
  return {
    knowledge,
    state,
    dashboard,
    ops,
    system: knowledge.systems.get(here),
    station: nearestStation(knowledge, dashboard),
    broke: state.brokeUntil > knowledge.clock,
    hullLow: ship.hull < ship.max_hull * REPAIR_BELOW,
    lawless: location.police_level < 50,
    jf,
    target,
    hop,
    needed,
    lowFuel: ship.fuel < needed,
  };
}

/** Docked: sell the hold (cargo only makes jumps dearer), repair a low hull, fill the tank. */
function dockedStep(round: Round): Step | undefined {
  const { dashboard, broke, hullLow, lowFuel } = round;
  const { ship, player, cargo } = dashboard;
  const held = cargo
    .filter((c) => c.quantity > 0)
    .sort((a, b) => b.quantity - a.quantity || a.item_id.localeCompare(b.item_id))[0];
  if (held) {
    return {
      call: { op: 'sell', args: { item_id: held.item_id, quantity: held.quantity } },
      rationale: `Docked with ${held.quantity} ${held.item_id}: selling it to lighten the jumps.`,
      intent: 'exploring',
    };
  }
  if (hullLow && player.credits >= 3 && !broke) {
    return {
      call: { op: 'repair', args: {} },
      rationale: `Hull ${ship.hull}/${ship.max_hull}: repairing before exploring on.`,
      intent: 'exploring',
    };
  }
  const missing = ship.max_fuel - ship.fuel;
  const reserve = lowFuel || ship.fuel < ship.max_fuel * TOP_UP_BELOW ? 0 : REPAIR_RESERVE;
  const quantity = Math.min(missing, Math.floor((player.credits - reserve) / 2));
  if (!broke && missing >= 5 && quantity >= Math.min(5, missing)) {
    return {
      call: { op: 'refuel', args: { quantity } },
      rationale: `Fuel ${ship.fuel}/${ship.max_fuel}: buying ${quantity} fuel before the next jumps.`,
      intent: 'exploring',
    };
  }
  return undefined;
}

/** A low hull: where pirates are, get to the station here, else to the safest neighbour; elsewhere repair if a
 * station is at hand. */
function hullStep(round: Round): Step | undefined {
  const { knowledge, dashboard, system, station, broke, hullLow, lawless, jf } = round;
  const { ship, location, player } = dashboard;
  if (hullLow && lawless && !location.docked) {
    const why = `Hull ${ship.hull}/${ship.max_hull} in lawless ${location.system_name}`;
    if (station) return goToStation({ knowledge, dashboard, station, why });
    const safest = [...(system?.connections ?? [])]
      .map((id) => knowledge.systems.get(id))
      .filter((s) => s !== undefined)
      .sort((a, b) => assumedPolice(b) - assumedPolice(a) || a.id.localeCompare(b.id))[0];
    if (safest && assumedPolice(safest) > location.police_level && ship.fuel >= jf) {
      return {
        call: { op: 'jump', args: { target: safest.id } },
        rationale: `${why}: jumping to safer ${safest.name}.`,
        intent: 'leaving lawless space',
      };
    }
  }
  if (hullLow && !location.docked && player.credits >= 3 && !broke && station) {
    return goToStation({ knowledge, dashboard, station, why: `Hull ${ship.hull}/${ship.max_hull}` });
  }
  return undefined;
}

/** Short of fuel for the next hops: earn the money for it here, or go and buy it (undefined: the tank will do). */
function fuelStep(round: Round, jump: Step): Outcome | undefined {
  const { knowledge, state, dashboard, ops, station, needed, lowFuel } = round;
  const { ship, location, player, cargo } = dashboard;
  // Short of the credits the tank needs: fill the hold here first (mine, dock, sell), then buy fuel.
  const wanted = Math.max(needed, ship.max_fuel * TOP_UP_BELOW) - ship.fuel;
  if (wanted > 0 && player.credits < 2 * Math.max(wanted, 20) && (location.docked || lowFuel || cargo.length > 0)) {
    const earn = earnHere(knowledge, state, dashboard, ops);
    if (earn) return earn;
  }
  const topUp = ship.fuel < ship.max_fuel * TOP_UP_BELOW && player.credits >= 20 && station !== undefined;
  if (location.docked && lowFuel) return { grind: true }; // docked and still short: the fuel could not be paid for
  if (!location.docked && (lowFuel || topUp)) return fuelTrip(round, jump);
  return undefined;
}

/** Undocked with a tank to fill: the station here, else a jump toward the nearest one; jump on when broke. */
function fuelTrip(round: Round, jump: Step): Outcome | undefined {
  const { knowledge, dashboard, station, broke, lowFuel, jf } = round;
  const { ship, location, player } = dashboard;
  if (player.credits < 2 || broke) return lowFuel || ship.fuel < jf ? { grind: true } : jump;
  const toStation =
    station && location.poi_id !== station.id
      ? travelFuel(knownDistance(knowledge, location.poi_id ?? '', station.id))
      : 0;
  if (station && ship.fuel >= toStation) {
    return goToStation({ knowledge, dashboard, station, why: `Fuel ${ship.fuel}/${ship.max_fuel}` });
  }
  if (!station && ship.fuel >= jf) {
    const next = routeToStation(knowledge, location.system_id)?.[1];
    if (next) {
      return {
        call: { op: 'jump', args: { target: next } },
        rationale: `Fuel ${ship.fuel}/${ship.max_fuel}: jumping to ${knowledge.systems.get(next)?.name ?? next} on the way to a station.`,
        intent: 'heading for fuel',
      };
    }
  }
  return undefined;
}

/** The jump to the next hop toward the unvisited target system. */
function exploreJump(knowledge: Knowledge, dashboard: Dashboard, targetId: string, hop: string): Step {
  const { ship } = dashboard;
  const hopName = knowledge.systems.get(hop)?.name ?? hop;
  const targetName = knowledge.systems.get(targetId)?.name ?? targetId;
  return {
    call: { op: 'jump', args: { target: hop } },
    rationale:
      hop === targetId
        ? `Exploring: jumping to unvisited ${hopName} (police ${knowledge.systems.get(hop)?.policeLevel ?? '?'}, fuel ${ship.fuel}/${ship.max_fuel}).`
        : `Exploring: jumping to ${hopName} on the way to unvisited ${targetName}.`,
    intent: `exploring toward ${targetName}`,
  };
}

/**
 * Earning fuel money without leaving the system: mine at a POI here until the hold is full (or the deposit is
 * empty), then dock at the station here (where the docked step sells). Undefined when the system has no station or
 * nothing to mine, or the fuel would not cover the round trip.
 */
function earnHere(
  knowledge: Knowledge,
  state: PolicyState,
  dashboard: Dashboard,
  ops: ReadonlySet<GameOp>,
): Outcome | undefined {
  const { ship, location } = dashboard;
  const station = nearestStation(knowledge, dashboard);
  if (!station) return undefined;
  const mines = knowledge.poisIn(location.system_id).filter((p) => isMiningPoi(p) && !state.avoid.has(p.id));
  const resourceAt = (poi: PoiInfo): ReturnType<typeof bestResource> =>
    bestResource({ knowledge, poi, station: station.id, dashboard });
  // Deposits are told only on the spot (get_poi there): a POI not yet looked at is worth the trip.
  const minable = (poi: PoiInfo): boolean => poi.deposits === undefined || resourceAt(poi) !== undefined;
  const full = ship.cargo_used >= ship.cargo_capacity;
  const at = mines.find((p) => p.id === location.poi_id);
  if (at && !location.docked && !full) {
    if (!at.deposits && ops.has('get_poi') && knowledge.mayAsk('get_poi', {})) {
      return { queries: [{ op: 'get_poi', args: {} }] };
    }
    if (minable(at)) {
      const resource = resourceAt(at);
      return {
        call: { op: 'mine', args: {} },
        rationale: `Short of fuel money: mining ${resource?.item ?? 'ore'} at ${at.name} (cargo ${ship.cargo_used}/${ship.cargo_capacity}).`,
        intent: `earning fuel money at ${at.name}`,
      };
    }
  }
  const mine = full
    ? undefined
    : mines
        .filter(minable)
        .sort(
          (a, b) =>
            knownDistance(knowledge, a.id, station.id) - knownDistance(knowledge, b.id, station.id) ||
            a.id.localeCompare(b.id),
        )[0];
  if (!mine) {
    if (ship.cargo_used > 0 && !location.docked)
      return goToStation({ knowledge, dashboard, station, why: 'Hold ready to sell' });
    return undefined;
  }
  const trip =
    travelFuel(knownDistance(knowledge, location.poi_id ?? '', mine.id)) +
    travelFuel(knownDistance(knowledge, mine.id, station.id));
  if (ship.fuel < trip) return undefined;
  return {
    call: { op: 'travel', args: { target: mine.id } },
    rationale: `Short of fuel money (${dashboard.player.credits} cr): travelling to ${mine.name} to mine.`,
    intent: `earning fuel money at ${mine.name}`,
  };
}

/** The station POI of the current system closest to where the ship is, if known. */
function nearestStation(knowledge: Knowledge, dashboard: Dashboard): PoiInfo | undefined {
  const at = dashboard.location.poi_id ?? '';
  return knowledge
    .poisIn(dashboard.location.system_id)
    .filter((p) => p.hasBase)
    .sort(
      (a, b) => knownDistance(knowledge, at, a.id) - knownDistance(knowledge, at, b.id) || a.id.localeCompare(b.id),
    )[0];
}

function goToStation(options: { knowledge: Knowledge; dashboard: Dashboard; station: PoiInfo; why: string }): Step {
  const { dashboard, station, why } = options;
  if (dashboard.location.poi_id === station.id) {
    return {
      call: { op: 'dock', args: {} },
      rationale: `${why}: docking at ${station.name}.`,
      intent: `docking at ${station.name}`,
    };
  }
  return {
    call: { op: 'travel', args: { target: station.id } },
    rationale: `${why}: travelling to ${station.name} to dock.`,
    intent: `docking at ${station.name}`,
  };
}
