// The plans the planner bench's scripted model proposes. A plan that only says "mine" leaves every choice to the
// autopilot and so measures nothing; these name a resource, a station to sell it at and the system to stay in,
// chosen among the mining loops the world offers around the start (the start system and its neighbours): a seeded
// pick (some better than the autopilot's own loop, some worse), or always the worst-paying one (the failing planner).
import { generateWorld, type World } from '../sim/index.js';

/** A resource minable in a system and a station there that buys it, with the station's equilibrium bid. */
export interface MiningLoop {
  system: string;
  station: string;
  resource: string;
  bid: number;
}

/** The set_plan arguments a scripted planner sends. */
export interface ProposedPlan {
  strategy: 'mine';
  intent: string;
  resource: string;
  sell_at: string;
  systems: string[];
}

/** Proposes the plan for the n-th check-in (0-based). */
export type PlanChooser = (checkIn: number) => ProposedPlan;

/** The world the bench's captains play on (minimolt's default of 30 systems). */
export function benchWorld(seed: number): World {
  return generateWorld({ seed, systems: 30 });
}

/** Every (resource, station) loop in `start` and the systems one lane away, sorted by bid, best first. */
export function miningLoops(world: World, start: string): MiningLoop[] {
  const near = [start, ...(world.systems.get(start)?.lanes.keys() ?? [])];
  const loops: MiningLoop[] = [];
  for (const systemId of near) {
    const pois = world.systems.get(systemId)?.pois ?? [];
    const minable = new Set(pois.flatMap((poi) => poi.deposits.map((deposit) => deposit.resource)));
    for (const station of pois.filter((poi) => poi.hasBase && poi.market)) {
      for (const resource of minable) {
        const entry = station.market?.get(resource);
        if (entry?.buys) loops.push({ system: systemId, station: station.id, resource, bid: entry.equilibrium });
      }
    }
  }
  return loops.sort((a, b) => b.bid - a.bid || a.station.localeCompare(b.station));
}

function planFor(loop: MiningLoop, why: string): ProposedPlan {
  return {
    strategy: 'mine',
    intent: `${why}: mine ${loop.resource} in ${loop.system}, sell at ${loop.station} (bid ~${Math.round(loop.bid)})`,
    resource: loop.resource,
    sell_at: loop.station,
    systems: [loop.system],
  };
}

/** A deterministic draw in [0, n) for (seed, check-in). */
function draw(seed: number, checkIn: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b1, 0x85ebca6b) ^ Math.imul(checkIn + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  return ((h ^ (h >>> 15)) >>> 0) % n;
}

/** A seeded pick among the loops at every check-in. */
export function seededPlans(loops: readonly MiningLoop[], seed: number): PlanChooser {
  if (loops.length === 0) throw new Error('planner bench: no mining loop near the start');
  return (checkIn) => planFor(loops[draw(seed, checkIn, loops.length)] as MiningLoop, 'a seeded pick');
}

/** Always the worst-paying loop: the planner the bench must see fail. */
export function worstPlans(loops: readonly MiningLoop[]): PlanChooser {
  const worst = loops.at(-1);
  if (!worst) throw new Error('planner bench: no mining loop near the start');
  return () => planFor(worst, 'the worst-paying loop');
}
