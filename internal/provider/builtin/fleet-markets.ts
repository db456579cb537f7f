// The autopilot's side of a fleet's shared knowledge: what it tells the fleet of a station's market, and how a bid the
// fleet saw (newer than its own, or at a station it never docked at) and the sales its fleet-mates are on their way to
// make change the bid it expects. Without a fleet port nothing here is called.
import type { FleetKnowledgePort, SharedMarketView } from '../../spacemolt/index.js';
import type { ItemId } from '../../spacemolt/index.js';
import { estimateBid, type MarketInfo } from './markets.js';

/** A station's market as the fleet is told it: the bid last known per item and the items nobody buys there. */
export function publishMarket(port: FleetKnowledgePort, market: MarketInfo, at: number): void {
  const bids: Record<string, number> = {};
  for (const [item, info] of market.bids) if (!market.noBuyers.has(item)) bids[item] = info.bid;
  port.publishMarket({
    poiId: market.poiId,
    systemId: market.systemId,
    name: market.name,
    bids,
    noBuyers: [...market.noBuyers].sort(),
    at,
  });
}

/** The fleet's views by station, read once per turn (the port builds its list on every call). */
export function sharedByStation(port: FleetKnowledgePort): Map<string, SharedMarketView> {
  return new Map(port.markets().map((view) => [view.poiId, view]));
}

/**
 * The bid expected for `item` at a station: the fleet's view when it is newer than the autopilot's own (or the only
 * one) and says something of the item, else the autopilot's own estimate; then walked down by what the other captains
 * claimed to sell there, as a sale of that many units would walk it (0.5% per unit).
 */
export function fleetBid(options: {
  own: MarketInfo | undefined;
  shared: SharedMarketView | undefined;
  item: ItemId;
  clock: number;
  claimed: number;
}): number | undefined {
  const { own, shared, item, clock, claimed } = options;
  let bid: number | undefined;
  if (shared && (own?.learnedAt === undefined || shared.at > own.learnedAt)) {
    if (shared.noBuyers.includes(item)) bid = 0;
    else bid = shared.bids[item];
  }
  bid ??= estimateBid(own, item, clock);
  return bid === undefined ? undefined : bid * claimFactor(claimed);
}

/** What is left of a bid after `claimed` units were sold into it. */
export function claimFactor(claimed: number): number {
  return claimed > 0 ? 0.995 ** claimed : 1;
}
