// Choosing where to mine and where to sell: every known (mining POI, station) pair in the same system is valued as
// credits per tick over a whole cycle (travel out, mine until full, travel back, dock, sell), discounted for the
// jumps needed to get there and for lawless space. Also the per-mine resource choice and market-depth maths.
import { jumpFuel, jumpTicks, mineYield, travelFuel, travelTicks, type ItemId } from '../../spacemolt/index.js';
import { Knowledge, assumedPolice, isMiningPoi, type Dashboard, type PoiInfo } from './knowledge.js';

export interface Plan {
  /** Mining POI. */
  mine: string;
  /** Station POI (same system as `mine`). */
  station: string;
  systemId: string;
  /** Estimated credits per tick. */
  rate: number;
}

/** Ticks the plan is expected to last: jumps are worth it only if the gain pays for them within this horizon. */
const HORIZON_TICKS = 200;
/** Assumed for a market never seen: a little under the average station multiplier. */
const UNKNOWN_MARKET_FACTOR = 0.9;
/** Assumed between two POIs of a system when no get_system told the distance (systems span a few AU). */
const UNKNOWN_DISTANCE = 5;

/** Average price factor when selling `units` one after another into a bid that falls 0.5% per unit. */
export function depthFactor(units: number): number {
  if (units <= 0) return 1;
  return (1 - 0.995 ** units) / (0.005 * units);
}

/** Expected units per mine of one resource at a POI. */
export function expectedYield(poi: PoiInfo, item: ItemId): number {
  const seen = poi.yields.get(item);
  if (seen !== undefined) return seen;
  const richness = poi.deposits?.get(item)?.richness ?? 4;
  // The game's formula for a level-1 miner with room to spare, until a real yield is seen.
  return mineYield({ free: Infinity, remaining: Infinity, richness, miningLevel: 1 });
}

/** What a unit of `item` is expected to fetch at `station` now. */
export function expectedBid(knowledge: Knowledge, station: string, item: ItemId): number {
  return (
    knowledge.estimateBid(station, item) ??
    knowledge.basePrice(item) * UNKNOWN_MARKET_FACTOR * knowledge.claimFactor(station, item)
  );
}

/** Positions are not told by the game: distances are what get_system said from where the ship was. */
export function knownDistance(knowledge: Knowledge, a: string, b: string): number {
  return knowledge.distance(a, b) ?? UNKNOWN_DISTANCE;
}

/**
 * The resource to mine next at `poi`: the most credits per mine, counting how far the bid will already have fallen
 * for what is in the hold (so the hold ends up mixed when that sells better).
 */
export function bestResource(options: {
  knowledge: Knowledge;
  poi: PoiInfo;
  station: string;
  dashboard: Dashboard;
}): { item: ItemId; value: number } | undefined {
  const { knowledge, poi, station, dashboard } = options;
  let best: { item: ItemId; value: number } | undefined;
  for (const [item, deposit] of poi.deposits ?? []) {
    if (deposit.remaining <= 0) continue;
    const held = dashboard.cargo.find((c) => c.item_id === item)?.quantity ?? 0;
    const value = expectedYield(poi, item) * expectedBid(knowledge, station, item) * 0.995 ** held;
    if (!best || value > best.value) best = { item, value };
  }
  return best;
}

/** Deposits unread: the best of what mines at `poi` brought up, per mine, at `station`'s expected bid. */
function bestYield(knowledge: Knowledge, poi: PoiInfo, station: string): { units: number; value: number } | undefined {
  let best: { units: number; value: number } | undefined;
  for (const [item, units] of poi.yields) {
    const value = units * expectedBid(knowledge, station, item);
    if (!best || value > best.value) best = { units, value };
  }
  return best;
}

/** What mine() gives at `poi`: the deposit with something left whose base price is highest. */
export function minedItem(knowledge: Knowledge, poi: PoiInfo): ItemId | undefined {
  let best: ItemId | undefined;
  for (const [item, deposit] of poi.deposits ?? []) {
    if (deposit.remaining <= 0) continue;
    if (best === undefined || knowledge.basePrice(item) > knowledge.basePrice(best)) best = item;
  }
  return best;
}

function pairRate(options: { knowledge: Knowledge; mine: PoiInfo; station: string; dashboard: Dashboard }): number {
  const { knowledge, mine, station, dashboard } = options;
  const capacity = Math.max(1, dashboard.ship.cargo_capacity);
  // Deposits not yet seen (get_poi answers only on the spot): a modest iron belt is assumed.
  let perMine = 4 * knowledge.basePrice('iron_ore') * UNKNOWN_MARKET_FACTOR;
  let units = 4;
  const yielded = mine.deposits ? undefined : bestYield(knowledge, mine, station);
  if (yielded) {
    // Deposits never read, but mines there brought something up: what they gave is what the trip brings.
    units = yielded.units;
    perMine = yielded.value;
  } else if (mine.deposits) {
    // mine() takes the deposit with the highest base price that has something left: that is what the trip brings.
    const item = minedItem(knowledge, mine);
    if (item === undefined) return 0;
    units = expectedYield(mine, item);
    perMine = units * expectedBid(knowledge, station, item);
  }
  const hold = capacity * (perMine / units) * depthFactor(capacity);
  const trip = travelTicks(knownDistance(knowledge, mine.id, station), dashboard.ship.speed);
  const cycle = 2 * trip + Math.ceil(capacity / units) + 1 + 1.5;
  const fuelCost = 2 * travelFuel(knownDistance(knowledge, mine.id, station)) * 2;
  return Math.max(0, (hold - fuelCost) / cycle);
}

/** The best known plan, or undefined when nothing minable with a station is known. */
export function choosePlan(options: PlanSearch): Plan | undefined {
  const { prefer, ...rest } = options;
  if (prefer && (prefer.resource || prefer.station || prefer.systems?.length)) {
    const preferred = bestPlan({ ...rest, prefer });
    if (preferred) return preferred;
  }
  return bestPlan(rest);
}

/** What a model's flight plan asks of the mining loop. Names or ids, matched without case. */
export interface PlanPreference {
  resource?: string;
  station?: string;
  systems?: string[];
}

const sameName = (wanted: string, id: string, name: string): boolean =>
  wanted.toLowerCase() === id.toLowerCase() || wanted.toLowerCase() === name.toLowerCase();

/** What a plan is chosen from. */
export interface PlanSearch {
  knowledge: Knowledge;
  dashboard: Dashboard;
  /** POIs to leave alone for now (emptied, refused). */
  avoid: ReadonlySet<string>;
  /** Prefer lawful space (hull low or simply safer). */
  safeOnly: boolean;
  /** A flight plan's wishes (planner mode): honoured when something known fits them, ignored otherwise. */
  prefer?: PlanPreference;
}

function bestPlan(options: PlanSearch): Plan | undefined {
  const { knowledge, dashboard, avoid, safeOnly, prefer } = options;
  const here = dashboard.location.system_id;
  let best: Plan | undefined;
  for (const system of knowledge.systems.values()) {
    if (!system.pois) continue;
    if (prefer?.systems?.length && !prefer.systems.some((wanted) => sameName(wanted, system.id, system.name))) continue;
    if (safeOnly && assumedPolice(system) < 50 && system.id !== here) continue;
    const route = knowledge.route(here, system.id);
    if (!route) continue;
    // Fuel for the jumps there: what is in the tank, plus what the credits buy when a station is at hand.
    const canBuy = knowledge.systems.get(here)?.hasStation ? Math.floor(dashboard.player.credits / 2) : 0;
    if ((route.length - 1) * jumpFuel(dashboard.ship.cargo_used) + 2 > dashboard.ship.fuel + canBuy) continue;
    const pois = knowledge.poisIn(system.id);
    const stations = pois
      .filter((p) => p.hasBase && !avoid.has(p.id))
      .filter((p) => !prefer?.station || sameName(prefer.station, p.id, p.name));
    const mines = pois
      .filter((p) => isMiningPoi(p) && !avoid.has(p.id))
      .filter(
        (p) => !prefer?.resource || !p.deposits || (p.deposits.get(prefer.resource as ItemId)?.remaining ?? 0) > 0,
      );
    for (const station of stations) {
      for (const mine of mines) {
        let rate = pairRate({ knowledge, mine, station: station.id, dashboard });
        const jumpCost = (route.length - 1) * (jumpTicks(dashboard.ship.speed) + 1);
        rate *= HORIZON_TICKS / (HORIZON_TICKS + jumpCost);
        const police = assumedPolice(system);
        if (police < 50) rate *= 0.4 + police / 100;
        if (!best || rate > best.rate) best = { mine: mine.id, station: station.id, systemId: system.id, rate };
      }
    }
  }
  return best;
}
