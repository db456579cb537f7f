// What a captain may know of its fleet's findings: the port the built-in autopilot (and the model's prompt) reads and
// writes, implemented by internal/fleet/shared-knowledge.ts. It lives here so the providers never import the fleet.
/** One station's market as a captain saw it, shared with the fleet. `at` is epoch ms. */
export interface SharedMarketView {
  poiId: string;
  systemId: string;
  name: string;
  at: number;
  /** Best bid per item (what the station pays), as last seen. */
  bids: Record<string, number>;
  /** Items nobody buys there. */
  noBuyers: string[];
  /** Who saw it. */
  captain: string;
}

/** A captain on its way to sell at a station: others count on the bid being walked down by this much cargo. */
export interface SaleClaim {
  captain: string;
  poiId: string;
  item: string;
  quantity: number;
  /** Epoch ms after which the claim lapses (it was sold, or the captain changed its mind). */
  until: number;
}

export interface FleetKnowledgePort {
  /** This captain saw a station's market (a view_market, or a sale that moved a bid, or a no-buyers answer). */
  publishMarket(view: Omit<SharedMarketView, 'captain' | 'at'> & { at?: number }): void;
  /** What the other captains of the fleet saw, newest per station (this captain's own views left out). */
  markets(): SharedMarketView[];
  /** This captain heads to `poiId` to sell `quantity` of `item` (replaces its earlier claim for that item). */
  claimSale(claim: Omit<SaleClaim, 'captain' | 'until'> & { forMs?: number }): void;
  /** Cargo the *other* captains have claimed to sell of `item` at `poiId` (claims not yet lapsed). */
  claimed(poiId: string, item: string): number;
}
