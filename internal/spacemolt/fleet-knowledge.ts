// What a captain may know of its fleet's findings: the port the built-in autopilot (and the model's prompt) reads and
// writes, implemented by internal/fleet/shared-knowledge.ts. It lives in the game's domain (below provider and fleet)
// so the providers never import the fleet.
// Markets, systems (routes) and dangers are dated (`at`, epoch ms) so a reader can weigh their age.
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

/** A POI as a system's survey lists it. */
export interface SharedPoi {
  id: string;
  name: string;
  /** The game's POI type (station, asteroid_belt, …) when the survey said it. */
  type?: string;
  hasBase: boolean;
}

/** One system as a captain surveyed it (get_system): its POIs and lanes, enough to plan a route and a mining loop. */
export interface SharedSystemView {
  systemId: string;
  name: string;
  /** Unknown when no answer stated it. */
  policeLevel?: number;
  /** Neighbour system ids. */
  connections: string[];
  pois: SharedPoi[];
  at: number;
  captain: string;
}

/** A place where a captain came to harm (hull lost to an ambush, a ship destroyed). */
export interface SharedDanger {
  systemId: string;
  /** What happened, in a few words ("pirates: 25 hull lost"). */
  what: string;
  at: number;
  captain: string;
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
  /** This captain surveyed a system (its get_system answer). */
  publishSystem(view: Omit<SharedSystemView, 'captain' | 'at'> & { at?: number }): void;
  /**
   * Every system the fleet surveyed (this captain's own surveys included), newest per system. The same array is
   * returned until a system is added or changes, so a reader can skip merging what it merged before.
   */
  systems(): readonly SharedSystemView[];
  /** This captain came to harm in a system. */
  publishDanger(danger: Omit<SharedDanger, 'captain' | 'at'> & { at?: number }): void;
  /** Harm the *other* captains came to, newest per system, while it is recent enough to steer clear of. */
  dangers(): SharedDanger[];
}
