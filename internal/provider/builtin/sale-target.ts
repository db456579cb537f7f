// Where a full hold goes, in a fleet: the plan's station was chosen when the hold was empty, and since then a
// fleet-mate may have seen a better bid at another station of that system, or claimed the plan's station for a large
// sale of its own. The hold is valued at each station the autopilot's map knows there, and the one chosen is claimed
// for what the hold carries, so the others count on its walk-down. Alone (no fleet port), the plan's station stands.
import type { Dashboard, Knowledge } from './knowledge.js';
import { depthFactor, expectedBid, knownDistance, type Plan } from './plan.js';
import { travelFuel } from '../../spacemolt/index.js';

/** Fuel is bought at about this many credits a unit (minimolt's and SpaceMolt's usual station price). */
const FUEL_PRICE = 2;

export function saleTarget(options: {
  knowledge: Knowledge;
  dashboard: Dashboard;
  plan: Plan;
  avoid: ReadonlySet<string>;
}): string {
  const { knowledge, dashboard, plan, avoid } = options;
  const fleet = knowledge.fleet;
  if (!fleet) return plan.station;
  const here = dashboard.location.poi_id ?? '';
  const stations = knowledge
    .poisIn(plan.systemId)
    .filter((p) => p.hasBase && (p.id === plan.station || !avoid.has(p.id)))
    .map((p) => p.id);
  let best = { id: plan.station, value: holdValue({ knowledge, dashboard, station: plan.station, here, plan }) };
  for (const id of [...stations].sort()) {
    const value = holdValue({ knowledge, dashboard, station: id, here, plan });
    if (value > best.value) best = { id, value };
  }
  for (const { item_id: item, quantity } of dashboard.cargo) {
    if (quantity > 0) fleet.claimSale({ poiId: best.id, item, quantity });
  }
  return best.id;
}

/** Credits the hold fetches at `station` (each item sold down its bid), less the fuel of the detour there. */
function holdValue(options: {
  knowledge: Knowledge;
  dashboard: Dashboard;
  station: string;
  here: string;
  plan: Plan;
}): number {
  const { knowledge, dashboard, station, here, plan } = options;
  let value = 0;
  for (const { item_id: item, quantity } of dashboard.cargo) {
    if (quantity <= 0) continue;
    value += quantity * expectedBid(knowledge, station, item) * depthFactor(quantity);
  }
  const fuel =
    travelFuel(knownDistance(knowledge, here, station)) + travelFuel(knownDistance(knowledge, station, plan.mine));
  return value - fuel * FUEL_PRICE;
}
