// The autopilot's decision for one round: which queries fill a gap in what it knows, which single action moves the
// mine → haul → dock → sell → refuel/repair cycle on, or whether to end the turn. No I/O: it reads
// (knowledge, turn) and updates its own PolicyState as it goes (the plan, the intent, places to avoid, prospecting);
// it speaks in ops with Skipper's argument names, and the provider spells them for the game's face.
import type { GameOp, MmLocation } from '../../spacemolt/index.js';
import { assumedPolice, type Dashboard, type Knowledge, type PoiInfo } from './knowledge.js';
import { bestResource, choosePlan, knownDistance, type Plan, type PlanPreference } from './plan.js';
import { jumpFuel, travelFuel } from '../../spacemolt/index.js';
import { GOOD_RATE, prospectStep, prospectingOpen, resumeProspecting } from './prospect.js';
import { missingKnowledge, scoutPath, type PlannedCall } from './survey.js';
import { saleTarget } from './sale-target.js';
import { stationStep } from './station-step.js';
import { avoidDangers } from './fleet-dangers.js';
export type { PlannedCall } from './survey.js';

export type Decision = { kind: 'calls'; calls: PlannedCall[]; rationale: string } | { kind: 'end'; reason: string };

/** What the autopilot carries from turn to turn besides its knowledge. Times are on the knowledge's clock. */
export interface PolicyState {
  plan: Plan | undefined;
  /** POI id -> time until which it is left alone (emptied deposit, refused action). */
  avoid: Map<string, number>;
  /** Action key -> time at which it failed: not repeated before something changed. */
  failed: Map<string, number>;
  /** What the autopilot means to do next, for the turn summary. */
  intent: string;
  /** After no_credits: no refuel/repair attempts before this time. */
  brokeUntil: number;
  /** The game refused a travel or jump while docked (minimolt undocks on its own; a server may not): undock first. */
  undockFirst: boolean;
  /** Still looking at nearby systems before committing to a loop (see prospect.ts). */
  prospecting: boolean;
  /** The last look ended without a good plan (fuel, time): it may resume once credits pay for it. */
  lookCutShort: boolean;
  /** Where the current look began: it looks at systems near there, not near wherever the ship has got to. */
  lookHome?: string;
  /** Planner mode: where the model wants the mining loop (honoured when known places fit). */
  prefer?: PlanPreference;
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
/** Prospecting goes on while the hold is under this share of its capacity (test mines fill it a little). */
const PROSPECT_HOLD_SHARE = 0.25;
const REPAIR_BELOW = 0.6;

export function createPolicyState(): PolicyState {
  return {
    plan: undefined,
    avoid: new Map(),
    failed: new Map(),
    intent: 'looking for work',
    brokeUntil: 0,
    undockFirst: false,
    prospecting: true,
    lookCutShort: false,
  };
}

export function mutationKey(call: PlannedCall): string {
  return `${call.op} ${JSON.stringify(call.args)}`;
}

/** What every decision mode reads. */
export interface DecideOptions {
  knowledge: Knowledge;
  state: PolicyState;
  turn: TurnView;
  /** The ops the game's face offers. */
  ops: ReadonlySet<GameOp>;
}

const STATUS: PlannedCall = { op: 'get_status', args: {} };

export function decide(options: DecideOptions): Decision {
  const { knowledge, state, turn, ops } = options;
  const dashboard = knowledge.dashboard;
  if (!dashboard) {
    if (ops.has('get_status') && !turn.statusAsked)
      return { kind: 'calls', calls: [STATUS], rationale: 'Checking the ship status.' };
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
  const queries = missingKnowledge(knowledge, dashboard, ops).filter((q) => !danger || q.op === 'get_system');
  if (queries.length > 0) {
    const what = [...new Set(queries.map((q) => q.op))].join(', ');
    return { kind: 'calls', calls: queries, rationale: `Surveying (${what}) before acting.` };
  }

  const step = nextMutation(knowledge, state, dashboard);
  if (!step) return { kind: 'end', reason: 'Nothing useful to do here right now.' };
  return mutationDecision({ step, state, now: knowledge.clock, docked: dashboard.location.docked, ops, turn });
}

/** The decision for one planned action, shared by every mode: offered by the game, not just failed in this state. */
export function mutationDecision(options: {
  step: { call: PlannedCall; intent: string; rationale: string };
  state: PolicyState;
  now: number;
  docked: boolean;
  ops: ReadonlySet<GameOp>;
  turn: TurnView;
}): Decision {
  const { step, state, now, docked, ops, turn } = options;
  const moving = step.call.op === 'travel' || step.call.op === 'jump';
  if (moving && docked && state.undockFirst && ops.has('undock')) {
    return mutationDecision({
      ...options,
      step: { ...step, call: { op: 'undock', args: {} }, rationale: `Undocking first. ${step.rationale}` },
    });
  }
  if (!ops.has(step.call.op)) return { kind: 'end', reason: `The game offers no ${step.call.op} command.` };
  const failedAt = state.failed.get(mutationKey(step.call));
  if (failedAt !== undefined && failedAt >= now) {
    // The same action failed and nothing has happened since: refresh the status once rather than repeating it.
    if (ops.has('get_status') && !turn.statusAsked) {
      return { kind: 'calls', calls: [STATUS], rationale: 'Last action failed; rechecking status.' };
    }
    return { kind: 'end', reason: `Could not ${step.call.op}; will retry next turn.` };
  }
  state.intent = step.intent;
  return { kind: 'calls', calls: [step.call], rationale: step.rationale };
}

export interface Step {
  call: PlannedCall;
  rationale: string;
  intent: string;
}

function replan(knowledge: Knowledge, state: PolicyState, dashboard: Dashboard): Plan | undefined {
  const avoid = new Set(state.avoid.keys());
  const base = { knowledge, dashboard, avoid, ...(state.prefer ? { prefer: state.prefer } : {}) };
  state.plan = choosePlan({ ...base, safeOnly: true }) ?? choosePlan({ ...base, safeOnly: false });
  return state.plan;
}

function nextMutation(knowledge: Knowledge, state: PolicyState, dashboard: Dashboard): Step | undefined {
  const { ship, location } = dashboard;
  const now = knowledge.clock;
  for (const [poi, until] of state.avoid) if (until <= now) state.avoid.delete(poi);
  // A fleet-mate's recent harm somewhere: that system's POIs are left alone like the autopilot's own refusals.
  if (knowledge.dangers.length > 0) avoidDangers({ knowledge, dangers: knowledge.dangers, avoid: state.avoid });
  const hullLow = ship.hull < ship.max_hull * REPAIR_BELOW;
  const lawless = location.police_level < 50;
  const broke = state.brokeUntil > now;

  if (location.docked && location.poi_id) {
    const step = stationStep({ knowledge, dashboard, here: location.poi_id, hullLow, broke });
    if (step) return step;
  }

  // Hull low in lawless space: get out before the pirates finish the job.
  if (hullLow && lawless && !location.docked) {
    const flee = fleeStep(knowledge, dashboard);
    if (flee) return flee;
  }

  const avoid = new Set(state.avoid.keys());
  const look = lookAroundStep(knowledge, state, dashboard, avoid);
  if (look) return look;
  const target = miningTarget(knowledge, state, dashboard);
  if (!target) return scoutStep(knowledge, dashboard, hullLow);
  return cycleStep({ knowledge, state, dashboard, target, avoid, hullLow, lawless });
}

/** Prospecting (see prospect.ts): the next look at a nearby system, or undefined once the look is over — then it
 * settles whether a later look may resume. */
function lookAroundStep(
  knowledge: Knowledge,
  state: PolicyState,
  dashboard: Dashboard,
  avoid: ReadonlySet<string>,
): Step | undefined {
  if (!state.prospecting && state.lookCutShort && resumeProspecting(knowledge, dashboard, avoid))
    state.prospecting = true;
  // A look starts with an empty hold; once started, a few units from test mines do not end it, a hold worth selling
  // does.
  if (!state.prospecting) return undefined;
  const { cargo_used: used, cargo_capacity: capacity } = dashboard.ship;
  if (state.lookHome === undefined ? dashboard.cargo.length > 0 || used > 0 : used > capacity * PROSPECT_HOLD_SHARE)
    return undefined;
  state.lookHome ??= dashboard.location.system_id;
  const home = state.lookHome;
  const step = prospectingOpen(knowledge, dashboard, avoid, home)
    ? prospectStep(knowledge, dashboard, home)
    : undefined;
  if (step) return step;
  state.prospecting = false;
  delete state.lookHome;
  state.plan = undefined;
  state.lookCutShort = (choosePlan({ knowledge, dashboard, avoid, safeOnly: true })?.rate ?? 0) < GOOD_RATE;
  return undefined;
}

/** The plan the cycle works, with its mine and the resource worth taking there. */
interface MiningTarget {
  plan: Plan;
  mine: PoiInfo | undefined;
  resource: ReturnType<typeof bestResource>;
}

/** The current plan, or a new one when it no longer holds (sold out, stuck at a station that does not buy, mine
 * avoided or worked out); undefined when no known place to mine and sell is left. */
function miningTarget(knowledge: Knowledge, state: PolicyState, dashboard: Dashboard): MiningTarget | undefined {
  const { location, cargo } = dashboard;
  const now = knowledge.clock;
  // Docked where the hold does not sell (no buyers here): the plan's station is wrong for what it mined.
  const stuckHere = location.docked && cargo.length > 0 && state.plan?.station === location.poi_id;
  if (stuckHere && location.poi_id) state.avoid.set(location.poi_id, now + 30);
  let plan =
    !state.plan || (location.docked && cargo.length === 0) || stuckHere || state.avoid.has(state.plan.mine)
      ? replan(knowledge, state, dashboard)
      : state.plan;
  if (!plan) return undefined;
  let target = targetOf(knowledge, dashboard, plan);
  if (target.mine?.deposits !== undefined && target.resource === undefined) {
    // Worked out: leave it to regenerate and pick the next best place.
    state.avoid.set(target.mine.id, now + 30);
    plan = replan(knowledge, state, dashboard);
    if (!plan) return undefined;
    target = targetOf(knowledge, dashboard, plan);
  }
  return target;
}

function targetOf(knowledge: Knowledge, dashboard: Dashboard, plan: Plan): MiningTarget {
  const mine = knowledge.pois.get(plan.mine);
  const resource = mine ? bestResource({ knowledge, poi: mine, station: plan.station, dashboard }) : undefined;
  return { plan, mine, resource };
}

/** Why the ship should take its hold to the station now (full, hurt where pirates are, mine empty), if it should. */
function haulReason(options: {
  dashboard: Dashboard;
  target: MiningTarget;
  hullLow: boolean;
  lawless: boolean;
}): string | undefined {
  const { dashboard, target, hullLow, lawless } = options;
  const { ship, player } = dashboard;
  if (ship.cargo_used >= ship.cargo_capacity) return `Cargo full (${ship.cargo_used}/${ship.cargo_capacity})`;
  // A low hull only matters where pirates are (police < 50), and going back is worth it only if repairs can be paid.
  if (hullLow && lawless && player.credits >= 3) return `Hull ${ship.hull}/${ship.max_hull}`;
  const mineEmpty = target.mine?.deposits !== undefined && target.resource === undefined;
  if (mineEmpty && ship.cargo_used > 0) return 'Deposit empty';
  return undefined;
}

/** One step of the mine → haul → dock cycle on the target: haul back, mine here, refuel, or head out to the mine. */
function cycleStep(options: {
  knowledge: Knowledge;
  state: PolicyState;
  dashboard: Dashboard;
  target: MiningTarget;
  avoid: ReadonlySet<string>;
  hullLow: boolean;
  lawless: boolean;
}): Step | undefined {
  const { knowledge, state, dashboard, target, avoid } = options;
  const { plan, mine, resource } = target;
  const { ship, location } = dashboard;
  const poiName = (id: string): string => knowledge.pois.get(id)?.name ?? id;
  const why = haulReason(options);
  if (why) {
    // With a fleet the hold may sell better elsewhere in the system than when the plan was made (and is claimed).
    const station = saleTarget({ knowledge, dashboard, plan, avoid });
    if (station !== plan.station) state.plan = { ...plan, station };
    return moveTo({ knowledge, location, dashboard, target: station, dock: true, poiName, why });
  }
  if (location.poi_id === plan.mine && !location.docked) {
    // The game picks what `mine` extracts at a POI; the estimate only says what the trip is worth.
    return {
      call: { op: 'mine', args: {} },
      // Name what this POI's mining has been giving, once seen: the estimate may favour another deposit.
      rationale: `Mining ${[...(mine?.yields.keys() ?? [])].at(-1) ?? resource?.item ?? 'ore'} at ${poiName(plan.mine)} (cargo ${ship.cargo_used}/${ship.cargo_capacity}).`,
      intent: `mining at ${poiName(plan.mine)}`,
    };
  }
  // Not enough fuel for the round trip: top up at the station first.
  const roundTrip = 2 * travelFuel(knownDistance(knowledge, plan.mine, plan.station)) + 2;
  if (ship.fuel < roundTrip && location.system_id === plan.systemId && !location.docked) {
    return moveTo({
      knowledge,
      location,
      dashboard,
      target: plan.station,
      dock: true,
      poiName,
      why: `Fuel ${ship.fuel}/${ship.max_fuel}`,
    });
  }
  return moveTo({
    knowledge,
    location,
    dashboard,
    target: plan.mine,
    dock: false,
    poiName,
    why: 'Heading out to mine',
  });
}

function fleeStep(knowledge: Knowledge, dashboard: Dashboard): Step | undefined {
  const { ship, location } = dashboard;
  const station = knowledge.poisIn(location.system_id).find((p) => p.hasBase);
  if (station && location.poi_id === station.id) {
    return {
      call: { op: 'dock', args: {} },
      rationale: 'Hull low in lawless space: docking for repairs.',
      intent: 'repairing',
    };
  }
  if (station && ship.fuel >= travelFuel(knownDistance(knowledge, location.poi_id ?? '', station.id))) {
    return {
      call: { op: 'travel', args: { target: station.id } },
      rationale: `Hull ${ship.hull}/${ship.max_hull} in lawless ${location.system_name}: heading to ${station.name} for repairs.`,
      intent: 'fleeing to a station',
    };
  }
  const safest = [...(knowledge.systems.get(location.system_id)?.connections ?? [])]
    .map((id) => knowledge.systems.get(id))
    .filter((s) => s !== undefined)
    .sort((a, b) => assumedPolice(b) - assumedPolice(a) || a.id.localeCompare(b.id))[0];
  if (safest && assumedPolice(safest) > location.police_level && ship.fuel >= jumpFuel(ship.cargo_used)) {
    return {
      call: { op: 'jump', args: { target: safest.id } },
      rationale: `Hull ${ship.hull}/${ship.max_hull} in lawless ${location.system_name}: jumping to safer ${safest.name}.`,
      intent: 'leaving lawless space',
    };
  }
  return undefined;
}

/** No known place to mine and sell: go and look at the nearest system with a station (lawful space first). */
function scoutStep(knowledge: Knowledge, dashboard: Dashboard, hullLow: boolean): Step | undefined {
  const here = dashboard.location.system_id;
  const path = scoutPath(knowledge, here, true) ?? (hullLow ? undefined : scoutPath(knowledge, here, false));
  const hop = path?.[1];
  const target = path?.at(-1);
  if (!hop || !target || dashboard.ship.fuel < jumpFuel(dashboard.ship.cargo_used)) return undefined;
  const name = knowledge.systems.get(target)?.name ?? target;
  return {
    call: { op: 'jump', args: { target: hop } },
    rationale: `Nothing to mine and sell here: jumping to ${knowledge.systems.get(hop)?.name ?? hop} to survey ${name}.`,
    intent: `surveying ${name}`,
  };
}

function moveTo(options: {
  knowledge: Knowledge;
  location: MmLocation;
  dashboard: Dashboard;
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
      return { call: { op: 'dock', args: {} }, rationale: `${why}: docking at ${name}.`, intent: `selling at ${name}` };
    }
    return undefined;
  }
  if (location.system_id === targetPoi.systemId) {
    return {
      call: { op: 'travel', args: { target } },
      rationale: `${why}: travelling to ${name}.`,
      intent: dock ? `selling at ${name}` : `mining at ${name}`,
    };
  }
  const hop = knowledge.route(location.system_id, targetPoi.systemId)?.[1];
  if (!hop || dashboard.ship.fuel < jumpFuel(dashboard.ship.cargo_used)) return undefined;
  return {
    call: { op: 'jump', args: { target: hop } },
    rationale: `${why}: jumping to ${knowledge.systems.get(hop)?.name ?? hop} on the way to ${name}.`,
    intent: `heading to ${name}`,
  };
}
