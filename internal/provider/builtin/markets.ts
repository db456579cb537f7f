// What the autopilot knows of station markets: bids per item as last seen, the bid a station returns to when left
// alone, and how a sale walked the bid down. Times are the autopilot's own clock (SpaceMolt's results carry no tick).
import type { ItemId, ObservedDetails } from '../../spacemolt/index.js';
import { MINIMOLT_BASE_PRICES } from '../../spacemolt/index.js';

export interface BidInfo {
  /** The bid when the station is left alone (first seen, or highest seen since). */
  normal: number;
  /** The bid last known, at `at` on the autopilot's clock. */
  bid: number;
  at: number;
}

export interface MarketInfo {
  /** Items nobody buys here (a market listing without a bid, or a sale answered `no buyers`): never sold here again
   * until a market view shows a bid for them. */
  noBuyers: Set<ItemId>;
  poiId: string;
  systemId: string;
  name: string;
  /** When a market view was last read here (the autopilot's clock); undefined when only sales taught it. */
  seenAt?: number;
  /** Epoch ms when a view or a sale last taught it: set only when a fleet shares markets (its views are dated so). */
  learnedAt?: number;
  bids: Map<ItemId, BidInfo>;
  basePrices: Map<ItemId, number>;
  fuelPrice: number;
  repairPrice: number;
}

export const BASE_PRICES: Readonly<Record<ItemId, number>> = MINIMOLT_BASE_PRICES;
/** For an item none of the known tables prices (SpaceMolt trades far more items than minimolt). */
const UNKNOWN_BASE_PRICE = 10;

/** Reads a view_market observation into `markets`; `where` stands in for a station block the text did not give. */
export function ingestMarket(options: {
  markets: Map<string, MarketInfo>;
  details: ObservedDetails<'view_market'>;
  where: { poiId?: string | null; systemId?: string };
  now: number;
}): void {
  const { markets, details, where, now } = options;
  const { station, items } = details;
  const poiId = station?.poi_id ?? where.poiId;
  if (!poiId || !items) return;
  const known = markets.get(poiId);
  const { bids, basePrices, noBuyers } = ingestListing({ items, known, now });
  markets.set(poiId, {
    noBuyers,
    seenAt: now,
    poiId,
    systemId: station?.system_id ?? where.systemId ?? known?.systemId ?? '',
    name: station?.name ?? known?.name ?? poiId,
    bids,
    basePrices,
    fuelPrice: details.fuel_price ?? known?.fuelPrice ?? 2,
    repairPrice: details.repair_price ?? known?.repairPrice ?? 3,
  });
}

/** A market view's item listing on top of what the station's market already held: bids, base prices, who buys. */
function ingestListing(options: {
  items: NonNullable<ObservedDetails<'view_market'>['items']>;
  known: MarketInfo | undefined;
  now: number;
}): Pick<MarketInfo, 'bids' | 'basePrices' | 'noBuyers'> {
  const { items, known, now } = options;
  const bids = known?.bids ?? new Map<ItemId, BidInfo>();
  const basePrices = known?.basePrices ?? new Map<ItemId, number>();
  const noBuyers = known?.noBuyers ?? new Set<ItemId>();
  for (const { item_id: item, bid, base_price: base } of items) {
    if (base !== undefined) basePrices.set(item, base);
    // A bid the answer did not carry (no bid column the reader knows) is unknown: it teaches nothing.
    if (bid === undefined) continue;
    // The real summary lists an item with an empty best_buy when nobody buys it here (read as bid 0).
    if (bid <= 0) {
      noBuyers.add(item);
      continue;
    }
    noBuyers.delete(item);
    const previous = bids.get(item);
    bids.set(item, { normal: Math.max(previous?.normal ?? 0, bid), bid, at: now });
  }
  return { bids, basePrices, noBuyers };
}

export function emptyMarket(where: { poiId: string; systemId: string; name: string }): MarketInfo {
  return { ...where, noBuyers: new Set(), bids: new Map(), basePrices: new Map(), fuelPrice: 2, repairPrice: 3 };
}

/** A sale walks the bid down 0.5% per unit: average = b·(1 − 0.995^q)/(0.005·q), so the bid after is b·0.995^q.
 * A sale answered `no buyers` marks the item as not bought here. */
export function ingestSell(options: { market: MarketInfo; details: ObservedDetails<'sell'>; now: number }): void {
  const { market, details, now } = options;
  if (details.no_buyers) market.noBuyers.add(details.item_id);
  const q = details.quantity_sold;
  const average = details.average_price;
  if (!(q > 0) || average === undefined) return;
  const start = (average * 0.005 * q) / (1 - 0.995 ** q);
  const after = start * 0.995 ** q;
  const known = market.bids.get(details.item_id);
  market.bids.set(details.item_id, { normal: Math.max(known?.normal ?? 0, start), bid: after, at: now });
}

/** Estimated bid now: the gap to the normal bid recovers 2% per step of the clock. */
export function estimateBid(market: MarketInfo | undefined, item: ItemId, now: number): number | undefined {
  if (market?.noBuyers.has(item)) return 0;
  const info = market?.bids.get(item);
  if (!info) return undefined;
  const gap = info.normal - info.bid;
  return info.normal - gap * 0.98 ** Math.max(0, now - info.at);
}

/** An item's base price: minimolt's table, else what a market said, else a modest guess. */
export function basePrice(markets: ReadonlyMap<string, MarketInfo>, item: ItemId): number {
  const known = (BASE_PRICES as Readonly<Record<string, number>>)[item];
  if (known !== undefined) return known;
  for (const market of markets.values()) {
    const base = market.basePrices.get(item);
    if (base !== undefined) return base;
  }
  return UNKNOWN_BASE_PRICE;
}
