// Net worth priced from the game's own market data: the bids of the market views the session saw (what a station
// would pay now), item by item, with minimolt's base price table only for items no market showed. One function
// (netWorthOf) prices every state the runner, the snapshots and therefore every view read.
import type { Message } from '../shared/index.js';
import { MINIMOLT_BASE_PRICES, detailsOf, observationOf } from '../spacemolt/index.js';

/** Where a net worth's cargo prices came from: the game's market bids (where known), or only the price table. */
export type NetWorthPricing = 'market' | 'price-table';

const BASE_PRICES: Readonly<Record<string, number>> = MINIMOLT_BASE_PRICES;

/** The latest bid per item from the market views seen so far, in the order they came back. */
export class PriceBook {
  private readonly bids = new Map<string, number>();

  /** Reads a tool result: a market view's bids replace the ones known for its items. */
  observe(message: Pick<Message, 'role' | 'isError' | 'data'>): void {
    if (message.role !== 'tool' || message.isError) return;
    const observation = observationOf(message.data);
    if (observation.op !== 'view_market') return;
    const market = detailsOf('view_market', observation.details);
    // A bid of 0 is "nobody buys it here": it says nothing of what the item is worth elsewhere.
    for (const item of market?.items ?? [])
      if (typeof item.bid === 'number' && item.bid > 0) this.bids.set(item.item_id, item.bid);
  }

  /** Whether any market view has been seen. */
  get seen(): boolean {
    return this.bids.size > 0;
  }

  bidOf(itemId: string): number | undefined {
    return this.bids.get(itemId);
  }
}

/** Credits plus the hold, each item at the game's bid when a market showed it, else at the price table. */
export function netWorthOf(
  credits: number,
  cargo: ReadonlyArray<{ item_id: string; quantity: number }>,
  prices?: PriceBook,
): { value: number; pricing: NetWorthPricing } {
  let value = credits;
  for (const item of cargo) value += (prices?.bidOf(item.item_id) ?? BASE_PRICES[item.item_id] ?? 0) * item.quantity;
  return { value, pricing: prices?.seen ? 'market' : 'price-table' };
}
