// The autopilot's decision for one round: which queries fill a gap in what it knows, which single mutation moves the
// mine → haul → dock → sell → refuel/repair cycle on, or whether to end the turn. Pure over (knowledge, state, turn).
import type { MmDashboard, MmLocation } from '../../shared/index.js';
import { Knowledge, isMiningPoi } from './knowledge.js';
import { bestResource, choosePlan, jumpFuel, poiDistance, travelFuel, type Plan } from './plan.js';

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

export type Decision =
  | { kind: 'calls'; calls: PlannedCall[]; rationale: string }
  | { kind: 'end'; reason: string };

/** What the autopilot carries from turn to turn besides its knowledge. */
export interface PolicyState {
  plan: Plan | undefined;
  /** POI id -> tick until which it is left alone (emptied deposit, refused action). */
  avoid: Map<string, number>;
  /** Mutation key -> dashboard tick at which it failed: not repeated before the state changes. */
  failed: Map<string, number>;
  /** What the autopilot means to do next, for the turn summary. */
  intent: string;
  /** After no_credits: no refuel/repair attempts before this tick. */
  brokeUntil: number;
}

export interface TurnView {
  /** Tick-costing actions already made this turn. */
  mutations: number;
  /** Error codes of the last round's results. */
  lastErrors: string[];
  consecutiveErrors: number;
  /** get_status already asked this turn. */
  statusAsked: boolean;
}

export const MAX_MUTATIONS_PER_TURN = 5;
/** How far (in jumps) the autopilot surveys for better deposits and stations when it already has work. */
const SURVEY_JUMPS = 2;
const REFUEL_BELOW = 0.6;
const REPAIR_BELOW = 0.6;

export function createPolicyState(): PolicyState {
  return { plan: undefined, avoid: new Map(), failed: new Map(), intent: 'looking for work', brokeUntil: 0 };
}

export function mutationKey(call: PlannedCall): string {
  return `${call.name} ${JSON.stringify(call.args)}`;
}

/** What every decision mode reads. */
export interface DecideOptions {
  knowledge: Knowledge;
  state: PolicyState;
  turn: TurnView;
  tools: ReadonlySet<string>;
}

export function decide(options: DecideOptions): Decision {
  const { knowledge, state, turn, tools } = options;
  const dashboard = knowledge.dashboard;
  if (!dashboard) {
    if (tools.has('get_status') && !turn.statusAsked) {
      return { kind: 'calls', calls: [{ name: 'get_status', args: {} }], rationale: 'Checking the ship status.' };
    }
    return { kind: 'end', reason: 'No ship status available yet.' };
  }
  if (dashboard.location.in_transit) {
    const left = dashboard.location.ticks_remaining;
    return { kind: 'end', reason: `In transit${left !== undefined ? `, ${left} ticks to go` : ''}.` };
  }
  if (turn.mutations >= MAX_MUTATIONS_PER_TURN) return { kind: 'end', reason: '' };

  const { ship, location } = dashboard;
  const danger = ship.hull < ship.max_hull * REPAIR_BELOW && location.police_level < 50 && !location.docked;
  // In danger only the current system's layout matters (where is the station, which way is out).
  const queries = missingKnowledge(knowledge, dashboard, tools).filter(
    (q) => !danger || (q.name === 'get_system' && q.args.system_id === location.system_id),
  );
  if (queries.length > 0) {
    const what = [...new Set(queries.map((q) => q.name))].join(', ');
    return { kind: 'calls', calls: queries, rationale: `Surveying (${what}) before acting.` };
  }

  const step = nextMutation(knowledge, state, dashboard);
  if (!step) return { kind: 'end', reason: 'Nothing useful to do here right now.' };
  return mutationDecision({ step, state, dashboard, tools, turn });
}

/** The decision for one planned mutation, shared by every mode: offered by the game, not just failed in this state. */
export function mutationDecision(options: {
  step: { call: PlannedCall; intent: string; rationale: string };
  state: PolicyState;
  dashboard: MmDashboard;
  tools: ReadonlySet<string>;
  turn: TurnView;
}): Decision {
  const { step, state, dashboard, tools, turn } = options;
  if (!tools.has(step.call.name)) return { kind: 'end', reason: `The game offers no ${step.call.name} tool.` };
  const failedAt = state.failed.get(mutationKey(step.call));
  if (failedAt !== undefined && failedAt >= dashboard.tick) {
    // The same action failed in this very state: refresh the status once rather than repeating it.
    if (tools.has('get_status') && !turn.statusAsked) {
      return { kind: 'calls', calls: [{ name: 'get_status', args: {} }], rationale: 'Last action failed; rechecking status.' };
    }
    return { kind: 'end', reason: `Could not ${step.call.name}; will retry next turn.` };
  }
  state.intent = step.intent;
  return { kind: 'calls', calls: [step.call], rationale: step.rationale };
}

function missingKnowledge(knowledge: Knowledge, dashboard: MmDashboard, tools: ReadonlySet<string>): PlannedCall[] {
  const calls: PlannedCall[] = [];
  const add = (name: string, args: Record<string, unknown>): void => {
    if (tools.has(name) && !knowledge.failedQueries.has(`${name} ${JSON.stringify(args)}`)) calls.push({ name, args });
  };
  const here = dashboard.location.system_id;
  if (!knowledge.mapKnown) add('get_map', {});
  if (!knowledge.systems.get(here)?.pois) add('get_system', { system_id: here });
  for (const poi of knowledge.poisIn(here)) {
    if (isMiningPoi(poi) && !poi.deposits) add('get_poi', { poi_id: poi.id });
  }
  const at = dashboard.location.poi_id;
  if (dashboard.location.docked && at && !knowledge.markets.has(at)) add('view_market', {});
  if (calls.length > 0) return calls;
  // Look around too (always the neighbours when there is no work here; otherwise lawful systems with a station up to
  // SURVEY_JUMPS away), so a better deposit or market nearby can be weighed against staying.
  const localPlan = knowledge.systems.get(here)?.pois !== undefined && hasWork(knowledge, here);
  for (const [systemId, jumps] of nearby(knowledge, here, localPlan ? SURVEY_JUMPS : 1)) {
    const system = knowledge.systems.get(systemId);
    if (localPlan && (!system || system.policeLevel < 50 || system.hasStation === false)) continue;
    if (!system?.pois) {
      if (jumps === 1 || system?.hasStation) add('get_system', { system_id: systemId });
    } else if (system.pois.some((id) => knowledge.pois.get(id)?.hasBase)) {
      for (const poi of knowledge.poisIn(systemId)) if (isMiningPoi(poi) && !poi.deposits) add('get_poi', { poi_id: poi.id });
    }
  }
  return calls;
}

/** Systems 1..maxJumps away over known lanes, nearest first, with their distance in jumps. */
function nearby(knowledge: Knowledge, from: string, maxJumps: number): Array<[string, number]> {
  const seen = new Map<string, number>([[from, 0]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift() as string;
    const depth = seen.get(current) as number;
    if (depth >= maxJumps) continue;
    for (const next of [...(knowledge.systems.get(current)?.connections ?? [])].sort()) {
      if (seen.has(next)) continue;
      seen.set(next, depth + 1);
      queue.push(next);
    }
  }
  seen.delete(from);
  return [...seen];
}

function hasWork(knowledge: Knowledge, systemId: string): boolean {
  const pois = knowledge.poisIn(systemId);
  const mining = pois.some((p) => isMiningPoi(p) && [...(p.deposits?.values() ?? [])].some((d) => d.remaining > 0));
  return mining && pois.some((p) => p.hasBase);
}

interface Step {
  call: PlannedCall;
  rationale: string;
  intent: string;
}

function nextMutation(knowledge: Knowledge, state: PolicyState, dashboard: MmDashboard): Step | undefined {
  const { ship, location, cargo, player } = dashboard;
  for (const [poi, until] of state.avoid) if (until <= dashboard.tick) state.avoid.delete(poi);
  const hullLow = ship.hull < ship.max_hull * REPAIR_BELOW;
  const lawless = location.police_level < 50;
  const poiName = (id: string): string => knowledge.pois.get(id)?.name ?? id;

  if (location.docked && location.poi_id) {
    const held = cargo.filter((c) => c.quantity > 0);
    if (held.length > 0) {
      const here = location.poi_id;
      const best = held
        .map((c) => ({ c, value: c.quantity * (knowledge.estimateBid(here, c.item_id, dashboard.tick) ?? 1) }))
        .sort((a, b) => b.value - a.value || a.c.item_id.localeCompare(b.c.item_id))[0];
      if (best) {
        const { item_id, quantity } = best.c;
        return {
          call: { name: 'sell', args: { item_id, quantity } },
          rationale: `Docked at ${location.poi_name ?? here} with ${ship.cargo_used}/${ship.cargo_capacity} cargo: selling ${quantity} ${item_id}.`,
          intent: 'selling the hold',
        };
      }
    }
    const missingHull = ship.max_hull - ship.hull;
    // Repairs may be partial: whatever the credits cover (3 cr per point).
    if (hullLow && player.credits >= 3 && !(state.brokeUntil > dashboard.tick)) {
      return {
        call: { name: 'repair', args: {} },
        rationale: `Hull ${ship.hull}/${ship.max_hull}: repairing for up to ${missingHull * 3} cr.`,
        intent: 'repairing',
      };
    }
    if (ship.fuel < ship.max_fuel * REFUEL_BELOW && player.credits >= 2 && !(state.brokeUntil > dashboard.tick)) {
      return {
        call: { name: 'refuel', args: {} },
        rationale: `Fuel ${ship.fuel}/${ship.max_fuel}: refuelling before the next trip.`,
        intent: 'refuelling',
      };
    }
  }

  // Hull low in lawless space: get out before the pirates finish the job.
  if (hullLow && lawless && !location.docked) {
    const station = knowledge.poisIn(location.system_id).find((p) => p.hasBase);
    if (station && location.poi_id === station.id) {
      return { call: { name: 'dock', args: {} }, rationale: 'Hull low in lawless space: docking for repairs.', intent: 'repairing' };
    }
    if (station && ship.fuel >= travelFuel(poiDistance(knowledge, location.poi_id ?? '', station.id))) {
      return {
        call: { name: 'travel', args: { target_poi: station.id } },
        rationale: `Hull ${ship.hull}/${ship.max_hull} in lawless ${location.system_name}: heading to ${station.name} for repairs.`,
        intent: 'fleeing to a station',
      };
    }
    const safest = [...(knowledge.systems.get(location.system_id)?.connections ?? [])]
      .map((id) => knowledge.systems.get(id))
      .filter((s) => s !== undefined)
      .sort((a, b) => b.policeLevel - a.policeLevel || a.id.localeCompare(b.id))[0];
    if (safest && safest.policeLevel > location.police_level && ship.fuel >= jumpFuel(ship.cargo_used)) {
      return {
        call: { name: 'jump', args: { target_system: safest.id } },
        rationale: `Hull ${ship.hull}/${ship.max_hull} in lawless ${location.system_name}: jumping to safer ${safest.name}.`,
        intent: 'leaving lawless space',
      };
    }
  }

  const avoid = (): Set<string> => new Set(state.avoid.keys());
  if (!state.plan || (location.docked && cargo.length === 0) || state.avoid.has(state.plan.mine)) {
    state.plan = choosePlan({ knowledge, dashboard, avoid: avoid(), safeOnly: true }) ??
      choosePlan({ knowledge, dashboard, avoid: avoid(), safeOnly: false });
  }
  let plan = state.plan;
  if (!plan) return undefined;
  let mine = knowledge.pois.get(plan.mine);
  let resource = mine ? bestResource({ knowledge, poi: mine, station: plan.station, dashboard }) : undefined;
  if (mine?.deposits !== undefined && resource === undefined) {
    // Worked out: leave it to regenerate and pick the next best place.
    state.avoid.set(mine.id, dashboard.tick + 30);
    state.plan = choosePlan({ knowledge, dashboard, avoid: avoid(), safeOnly: true }) ??
      choosePlan({ knowledge, dashboard, avoid: avoid(), safeOnly: false });
    if (!state.plan) return undefined;
    plan = state.plan;
    mine = knowledge.pois.get(plan.mine);
    resource = mine ? bestResource({ knowledge, poi: mine, station: plan.station, dashboard }) : undefined;
  }

  const full = ship.cargo_used >= ship.cargo_capacity;
  // A low hull only matters where pirates are (police < 50), and going back is worth it only if repairs can be paid.
  const repairable = hullLow && lawless && player.credits >= 3;
  const mineEmpty = mine?.deposits !== undefined && resource === undefined;
  if (full || repairable || (mineEmpty && ship.cargo_used > 0)) {
    const why = full ? `Cargo full (${ship.cargo_used}/${ship.cargo_capacity})` : repairable ? `Hull ${ship.hull}/${ship.max_hull}` : 'Deposit empty';
    return moveTo({ knowledge, location, dashboard, target: plan.station, dock: true, poiName, why });
  }
  if (location.poi_id === plan.mine && !location.docked) {
    const args = resource ? { resource_id: resource.item } : {};
    return {
      call: { name: 'mine', args },
      rationale: `Mining ${resource?.item ?? 'ore'} at ${poiName(plan.mine)} (cargo ${ship.cargo_used}/${ship.cargo_capacity}).`,
      intent: `mining at ${poiName(plan.mine)}`,
    };
  }
  // Not enough fuel for the round trip: top up at the station first.
  const roundTrip = 2 * travelFuel(poiDistance(knowledge, plan.mine, plan.station)) + 2;
  if (ship.fuel < roundTrip && location.system_id === plan.systemId && !location.docked) {
    return moveTo({ knowledge, location, dashboard, target: plan.station, dock: true, poiName, why: `Fuel ${ship.fuel}/${ship.max_fuel}` });
  }
  return moveTo({ knowledge, location, dashboard, target: plan.mine, dock: false, poiName, why: 'Heading out to mine' });
}

function moveTo(options: {
  knowledge: Knowledge;
  location: MmLocation;
  dashboard: MmDashboard;
  target: string;
  dock: boolean;
  poiName: (id: string) => string;
  why: string;
}): Step | undefined {
  const { knowledge, location, dashboard, target, dock, poiName, why } = options;
  const targetPoi = knowledge.pois.get(target);
  if (!targetPoi) return undefined;
  const name = poiName(target);
  if (location.poi_id === target) {
    if (dock && !location.docked) {
      return { call: { name: 'dock', args: {} }, rationale: `${why}: docking at ${name}.`, intent: `selling at ${name}` };
    }
    return undefined;
  }
  if (location.system_id === targetPoi.systemId) {
    return {
      call: { name: 'travel', args: { target_poi: target } },
      rationale: `${why}: travelling to ${name}.`,
      intent: dock ? `selling at ${name}` : `mining at ${name}`,
    };
  }
  const route = knowledge.route(location.system_id, targetPoi.systemId);
  const hop = route?.[1];
  if (!hop) return undefined;
  if (dashboard.ship.fuel < jumpFuel(dashboard.ship.cargo_used)) return undefined;
  return {
    call: { name: 'jump', args: { target_system: hop } },
    rationale: `${why}: jumping to ${knowledge.systems.get(hop)?.name ?? hop} on the way to ${name}.`,
    intent: `heading to ${name}`,
  };
}
