// What the autopilot does while docked at a station, before it thinks of the next trip: sell the hold where the
// station buys it, repair a worn hull, refuel a low tank. Never into a station known not to buy an item (a market
// without a bid for it, or a sale answered "no buyers"): the real server then sells nothing and the tick is lost.
import type { Dashboard, Knowledge } from './knowledge.js';
import type { Step } from './policy.js';

const REFUEL_BELOW = 0.6;

export function stationStep(options: {
  knowledge: Knowledge;
  dashboard: Dashboard;
  here: string;
  hullLow: boolean;
  /** After no_credits: no refuel or repair attempts for a while. */
  broke: boolean;
}): Step | undefined {
  const { knowledge, dashboard, here, hullLow, broke } = options;
  const { ship, cargo, player, location } = dashboard;
  const best = cargo
    .filter((c) => c.quantity > 0 && knowledge.estimateBid(here, c.item_id) !== 0)
    .map((c) => ({ c, value: c.quantity * (knowledge.estimateBid(here, c.item_id) ?? 1) }))
    .sort((a, b) => b.value - a.value || a.c.item_id.localeCompare(b.c.item_id))[0];
  if (best) {
    const { item_id, quantity } = best.c;
    return {
      call: { op: 'sell', args: { item_id, quantity } },
      rationale: `Docked at ${location.poi_name ?? here} with ${ship.cargo_used}/${ship.cargo_capacity} cargo: selling ${quantity} ${item_id}.`,
      intent: 'selling the hold',
    };
  }
  // Repairs may be partial: whatever the credits cover.
  if (hullLow && player.credits >= 3 && !broke) {
    return {
      call: { op: 'repair', args: {} },
      rationale: `Hull ${ship.hull}/${ship.max_hull}: repairing.`,
      intent: 'repairing',
    };
  }
  if (ship.fuel < ship.max_fuel * REFUEL_BELOW && player.credits >= 2 && !broke) {
    return {
      call: { op: 'refuel', args: {} },
      rationale: `Fuel ${ship.fuel}/${ship.max_fuel}: refuelling before the next trip.`,
      intent: 'refuelling',
    };
  }
  return undefined;
}
