// What the autopilot has learned about the game from the tool results it was shown: the latest ship state, the map,
// systems, POIs, their deposits and the distances between them, station markets. Results are read by the op they
// answered (never by tool name) and ingested once, by message id, so the stubs that replace older results in later
// contexts (no `data`) cost nothing. SpaceMolt's results carry no tick: the knowledge keeps its own clock. In a fleet it
// also holds what the fleet-mates learned: their markets, the systems they surveyed and the dangers they met.
import type {
  FleetKnowledgePort,
  Message,
  SharedDanger,
  SharedMarketView,
  SharedSystemView,
  ToolCall,
} from '../../shared/index.js';
import type {
  GameObservation,
  ItemId,
  MmCargoItem,
  MmLocation,
  MmShip,
  ObservedDetails,
  PoiType,
  StatusPlayer,
} from '../../spacemolt/index.js';
import { isRecord } from '../../shared/index.js';
import { OP_KINDS, detailsOf, shipSchema, statusPlayerSchema, ticksInDetails } from '../../spacemolt/index.js';
import { type MarketInfo, basePrice, emptyMarket, estimateBid, ingestMarket, ingestSell } from './markets.js';
import { claimFactor, fleetBid, publishMarket, sharedByStation } from './fleet-markets.js';
import { type Observed, callsById, errorCode, observe } from './observation.js';
import { addLanes, addRoute, shortestPath } from './lanes.js';
import { mergeSystems, publishSystem } from './fleet-routes.js';
import { destroyedIn, hullLoss } from './fleet-dangers.js';
import { POLICE_UNKNOWN, adjustCargo, fullyReckoned, locate, reckonAction } from './position.js';

export { BASE_PRICES, type BidInfo, type MarketInfo } from './markets.js';

/** The ship's state as last seen (a status block; parts the text left out are carried over from before). */
export interface Dashboard {
  player: StatusPlayer;
  ship: MmShip;
  location: MmLocation;
  cargo: MmCargoItem[];
}

export interface SystemInfo {
  id: string;
  name: string;
  policeLevel: number;
  hasStation?: boolean;
  /** Neighbour system ids. */
  connections: Set<string>;
  /** POI ids, once get_system was seen in this system. */
  pois?: string[];
}

export interface PoiInfo {
  id: string;
  systemId: string;
  name: string;
  /** Unknown until get_system or get_poi says it. */
  type?: PoiType;
  hasBase: boolean;
  /** Known once get_poi was seen there. */
  deposits?: Map<ItemId, Deposit>;
  /** Units per mine() observed here, by resource (the real yield, mining level included). */
  yields: Map<ItemId, number>;
}

type SystemDetails = NonNullable<ObservedDetails<'get_system'>['system']>;
type SystemLink = NonNullable<SystemDetails['connections']>[number];
type SystemPoi = NonNullable<SystemDetails['pois']>[number];

/** A deposit as get_poi told it (the text may leave out its maximum). */
export type Deposit = NonNullable<ObservedDetails<'get_poi'>['poi']['resources']>[number];

const MINING_TYPES: ReadonlySet<string> = new Set(['asteroid_belt', 'ice_field', 'gas_cloud']);

export function isMiningPoi(poi: PoiInfo): boolean {
  return poi.type !== undefined && MINING_TYPES.has(poi.type);
}

/** Queries whose failure is remembered so they are not asked again in the same place. */
const QUERY_MEMO: ReadonlySet<string> = new Set(['get_system', 'get_poi', 'view_market', 'get_map', 'find_route']);

export interface KnowledgeOptions {
  /** The fleet this captain shares markets with (`skipper fleet`); alone when absent. */
  fleet?: FleetKnowledgePort;
  /** Epoch ms, to date what is shared with the fleet; Date.now by default. */
  now?: () => number;
}

export class Knowledge {
  dashboard: Dashboard | undefined;
  readonly systems = new Map<string, SystemInfo>();
  readonly pois = new Map<string, PoiInfo>();
  readonly markets = new Map<string, MarketInfo>();
  mapKnown = false;
  /** Systems the ship has been seen in. */
  readonly visited = new Set<string>();
  /** Queries that failed (op + canonical args + where): not asked again there. */
  readonly failedQueries = new Set<string>();
  /**
   * The dashboard is our own reckoning and wants a status to confirm it: an action went through whose answer did not
   * say all it changed (the real server answers `Docked at X.`; a jump says nothing of fuel), or a turn began (ticks
   * passed: pirates, the market, other players).
   */
  stale = false;
  /**
   * The autopilot's clock for its timers and for the freshness of bids: one step per turn and per tick-costing
   * result (travel and jump count the ticks they say they took).
   */
  clock = 0;
  /** Distances in AU between POIs of one system, as get_system told them from where the ship was. */
  private readonly distances = new Map<string, number>();
  private readonly seen = new Set<string>();
  readonly fleet: FleetKnowledgePort | undefined;
  private readonly now: () => number;
  /** The fleet's views by station as they stand since the last ingest, read at the first bid after it (most rounds
   * estimate none: no station map is built for them). */
  private shared: Map<string, SharedMarketView> | undefined;
  /** The fleet's systems as last merged: the port hands out the same array until one changes. */
  private mergedSystems: readonly SharedSystemView[] | undefined;
  /** Systems surveyed by fleet-mates that this captain took into its map (never asked get_system there). */
  fleetSystems = 0;
  /** The other captains' recent dangers, as read at the last ingest. */
  dangers: readonly SharedDanger[] = [];

  constructor(options: KnowledgeOptions = {}) {
    this.fleet = options.fleet;
    this.now = options.now ?? Date.now;
  }

  /** Ingests the user and tool messages not seen before, in order; `then` sees each new result right after it was
   * read (before later ones), so what it concludes is about the state that result came from. */
  ingest(messages: readonly Message[], then?: (observed: Observed) => void): Observed[] {
    // The calls by id, gathered only when a new result needs its call (most rounds bring one or two).
    let calls: ReadonlyMap<string, ToolCall> | undefined;
    const fresh: Observed[] = [];
    for (const message of messages) {
      if ((message.role !== 'tool' && message.role !== 'user') || this.seen.has(message.id)) continue;
      this.seen.add(message.id);
      if (message.role === 'user') {
        this.clock += 1;
        continue;
      }
      calls ??= callsById(messages);
      const observed = observe(message, calls);
      fresh.push(observed);
      // Only a successful action moves the game on for us; a refusal leaves the state (and the clock) as it was.
      if (observed.op && OP_KINDS[observed.op] === 'mutation' && !message.isError) this.clock += ticksOf(observed);
      observed.at = this.clock;
      if (message.isError) {
        const code = errorCode(message);
        // Transient refusals say nothing about the query itself; anything else would fail again in the same place.
        const transient = code === 'rate_limited' || code === 'not_authenticated' || code === 'session_replaced';
        if (observed.op && QUERY_MEMO.has(observed.op) && !transient)
          this.failedQueries.add(this.queryKey(observed.op, observed.args));
      } else if (isRecord(message.data)) this.ingestData(observed);
      then?.(observed);
    }
    if (this.fleet) this.readFleet(this.fleet);
    return fresh;
  }

  /** What the fleet-mates learned, once per ingest: new surveys of systems and recent dangers read now, their markets
   * at the first bid estimated after it (see estimateBid). */
  private readFleet(fleet: FleetKnowledgePort): void {
    this.shared = undefined;
    const views = fleet.systems();
    if (views !== this.mergedSystems) {
      this.mergedSystems = views;
      this.fleetSystems += mergeSystems({ views, systems: this.systems, pois: this.pois });
    }
    this.dangers = fleet.dangers();
  }

  /** Tells the fleet where this captain came to harm. */
  private reportHarm(harm: { systemId: string; what: string } | undefined): void {
    if (harm) this.fleet?.publishDanger({ ...harm, at: this.now() });
  }

  /** A query's memo key: where the ship is matters, as get_system and get_poi describe the current place. */
  queryKey(op: string, args: Record<string, unknown>): string {
    const at = this.dashboard?.location;
    return `${op} ${JSON.stringify(args)} @${at?.system_id ?? ''}/${at?.poi_id ?? ''}`;
  }

  private ingestData(observed: Observed): void {
    const { data, op } = observed;
    if (data.error) return;
    if (op === 'travel') this.learnTrip(observed);
    if (this.fleet && (op === 'travel' || op === 'jump')) this.reportHarm(destroyedIn(data.details, this.dashboard));
    const stated = data.player !== undefined && data.ship !== undefined;
    const before = this.dashboard;
    if (stated || !op || OP_KINDS[op] !== 'mutation') this.ingestState(data, op);
    else this.reckon(observed);
    // Hull is only ever told, never reckoned: a drop between two told values is harm (pirates, in minimolt).
    if (this.fleet && data.ship && this.dashboard) this.reportHarm(hullLoss(before, this.dashboard));
    if (data.connections && this.dashboard && !this.dashboard.location.in_transit) {
      addLanes(this.systems, this.dashboard.location.system_id, data.connections);
    }
    this.ingestDetails(observed);
  }

  /** What the op's details teach. Details are checked against what the op's text gives; ones that do not fit are
   * not learnt from. */
  private ingestDetails(observed: Observed): void {
    const { data, op } = observed;
    const location = this.dashboard?.location;
    if (op === 'get_map') this.ingestMap(detailsOf(op, data.details));
    else if (op === 'get_system') this.ingestSystem(detailsOf(op, data.details), location);
    else if (op === 'get_poi') this.ingestPoi(detailsOf(op, data.details), location);
    else if (op === 'find_route') addRoute(this.systems, detailsOf(op, data.details)?.route ?? []);
    else if (op === 'view_market') this.ingestMarketView(detailsOf(op, data.details), location);
    else if (op === 'mine' && location?.poi_id) this.ingestMine(detailsOf(op, data.details), location.poi_id);
    else if (op === 'sell' && location?.poi_id) {
      const details = detailsOf(op, data.details);
      if (!details) return;
      ingestSell({ market: this.marketAt(location.poi_id, location.system_id), details, now: this.clock });
      this.share(location.poi_id);
      // Sold (or refused): the bid the fleet now sees already says so; the claim would count it twice.
      this.fleet?.claimSale({ poiId: location.poi_id, item: details.item_id, quantity: 0 });
    }
  }

  private ingestMarketView(
    details: ObservedDetails<'view_market'> | undefined,
    location: MmLocation | undefined,
  ): void {
    if (!details) return;
    const where = { poiId: location?.poi_id, systemId: location?.system_id };
    ingestMarket({ markets: this.markets, details, where, now: this.clock });
    const poiId = details.station?.poi_id ?? where.poiId;
    if (poiId) this.share(poiId);
  }

  /** Tells the fleet what a station's market now looks like (after a view, or a sale that moved it). */
  private share(poiId: string): void {
    const market = this.markets.get(poiId);
    if (!this.fleet || !market) return;
    market.learnedAt = this.now();
    publishMarket(this.fleet, market, market.learnedAt);
  }

  /** The market known at a station, made empty when none was seen yet (a sale still teaches who buys what). */
  private marketAt(poiId: string, systemId: string): MarketInfo {
    const known = this.markets.get(poiId);
    if (known) return known;
    const market = emptyMarket({ poiId, systemId, name: this.pois.get(poiId)?.name ?? poiId });
    this.markets.set(poiId, market);
    return market;
  }

  /** The real get_system says no distances between POIs: a travel's ticks at the ship's speed stand for one. */
  private learnTrip(observed: Observed): void {
    const from = this.dashboard?.location;
    const to = detailsOf('travel', observed.data.details)?.arrived_at;
    const ticks = ticksInDetails(observed.data.details);
    if (!from?.poi_id || from.in_transit || !to || ticks === undefined) return;
    const key = pairKey(from.poi_id, to);
    if (!this.distances.has(key)) this.distances.set(key, ticks * Math.max(1, this.dashboard?.ship.speed ?? 1));
  }

  /** A successful action whose answer said no state: its effect as the action implies it (position.ts). */
  private reckon(observed: Observed): void {
    if (!this.dashboard) return;
    if (!fullyReckoned(observed)) this.stale = true;
    this.dashboard = reckonAction({ before: this.dashboard, observed, systems: this.systems, pois: this.pois });
    if (!this.dashboard.location.in_transit) this.visited.add(this.dashboard.location.system_id);
  }

  /** The latest result wins; a status block without a cargo table means an empty hold only when it says 0 used. */
  private ingestState(data: GameObservation, op: Observed['op']): void {
    const before = this.dashboard;
    // The policies need whole pieces: a piece the result gave only in part leaves the one known before.
    const player = statusPlayerSchema.safeParse(data.player).data ?? before?.player;
    const ship = shipSchema.safeParse(data.ship).data ?? before?.ship;
    const location =
      locate({ seen: data.location, before: before?.location, systems: this.systems, pois: this.pois }) ??
      before?.location;
    if (!player || !ship || !location) return;
    if (data.player && data.ship) this.stale = false;
    let cargo = data.cargo ?? adjustCargo(before?.cargo ?? [], op, data.details);
    if (!data.cargo && ship.cargo_used === 0) cargo = [];
    this.dashboard = { player, ship, location, cargo };
    if (!location.in_transit) this.visited.add(location.system_id);
  }

  private ingestMap(details: ObservedDetails<'get_map'> | undefined): void {
    if (!details) return;
    this.mapKnown = true;
    for (const system of details.systems) {
      const known = this.systems.get(system.id);
      const connections = new Set([...(known?.connections ?? []), ...(system.connections ?? [])]);
      this.systems.set(system.id, {
        ...known,
        id: system.id,
        name: system.name ?? system.id,
        policeLevel: system.police_level ?? known?.policeLevel ?? 0,
        hasStation: system.has_station ?? known?.hasStation,
        connections,
      });
    }
  }

  private ingestSystem(details: ObservedDetails<'get_system'> | undefined, location: MmLocation | undefined): void {
    const system = details?.system;
    // Without the system's own id there is nothing to file what it says under.
    if (!system?.id) return;
    const systemId = system.id;
    const known = this.systems.get(systemId);
    const links = system.connections ?? [];
    const pois = system.pois ?? [];
    this.ingestNeighbours(systemId, links);
    this.systems.set(systemId, {
      ...known,
      id: systemId,
      name: system.name ?? systemId,
      policeLevel: system.police_level ?? known?.policeLevel ?? 0,
      hasStation: pois.some((p) => p.has_base),
      connections: new Set([...(known?.connections ?? []), ...links.map((c) => c.system_id)]),
      pois: pois.map((p) => p.id),
    });
    // Distances are from where the ship is: only meaningful when it is at a POI of this very system.
    this.ingestSystemPois(systemId, pois, location?.system_id === systemId ? location.poi_id : null);
    const surveyed = this.systems.get(systemId);
    if (this.fleet && surveyed) {
      publishSystem({ port: this.fleet, system: surveyed, pois: this.poisIn(systemId), at: this.now() });
    }
  }

  /** Systems a lane leads to, first heard of here: known by name and police level until surveyed themselves. */
  private ingestNeighbours(systemId: string, links: SystemLink[]): void {
    for (const link of links) {
      if (!this.systems.has(link.system_id)) {
        this.systems.set(link.system_id, {
          id: link.system_id,
          name: link.name ?? link.system_id,
          policeLevel: link.police_level ?? POLICE_UNKNOWN,
          connections: new Set([systemId]),
        });
      }
    }
  }

  /** A system's POIs as get_system lists them (no deposits: those come from get_poi), with their distances from
   * `from`, the POI the ship is at in this system. */
  private ingestSystemPois(systemId: string, pois: SystemPoi[], from: string | null): void {
    for (const poi of pois) {
      const knownPoi = this.pois.get(poi.id);
      this.pois.set(poi.id, {
        yields: new Map(),
        ...knownPoi,
        id: poi.id,
        systemId,
        name: poi.name ?? poi.id,
        type: poi.type,
        hasBase: poi.has_base === true,
      });
      if (from && poi.distance !== undefined) this.distances.set(pairKey(from, poi.id), poi.distance);
    }
  }

  private ingestPoi(details: ObservedDetails<'get_poi'> | undefined, location: MmLocation | undefined): void {
    const poi = details?.poi;
    if (!poi?.id) return;
    const poiId = poi.id;
    const known = this.pois.get(poiId);
    const systemId = poi.system_id ?? known?.systemId ?? location?.system_id ?? '';
    this.pois.set(poiId, {
      yields: new Map(),
      ...known,
      id: poiId,
      systemId,
      name: poi.name ?? known?.name ?? poiId,
      type: poi.type ?? known?.type,
      hasBase: poi.has_base ?? known?.hasBase ?? false,
      deposits: new Map((poi.resources ?? []).map((d) => [d.resource_id, { ...d }])),
    });
    this.listPoiInSystem(poiId, systemId);
    this.placeShipAt(poiId, systemId);
  }

  /** A POI described on the spot but missing from its system's surveyed list joins it. */
  private listPoiInSystem(poiId: string, systemId: string): void {
    const system = this.systems.get(systemId);
    if (system?.pois && !system.pois.includes(poiId)) system.pois.push(poiId);
  }

  /** get_poi describes the POI the ship is at: the one thing the real status leaves out while undocked. */
  private placeShipAt(poiId: string, systemId: string): void {
    const dashboard = this.dashboard;
    const location = dashboard?.location;
    if (!dashboard || !location || location.in_transit || location.docked || location.poi_id) return;
    if (location.system_id !== systemId) return;
    const here = this.pois.get(poiId);
    dashboard.location = { ...location, poi_id: poiId, poi_name: here?.name ?? poiId, poi_type: here?.type ?? null };
  }

  private ingestMine(details: ObservedDetails<'mine'> | undefined, poiId: string): void {
    const poi = this.pois.get(poiId);
    if (!poi || !details) return;
    const deposit = poi.deposits?.get(details.resource_id);
    if (deposit && details.deposit_remaining !== undefined) deposit.remaining = details.deposit_remaining;
    const ship = this.dashboard?.ship;
    const free = ship ? ship.cargo_capacity - ship.cargo_used : 0;
    // A mine cut short by a full hold or an empty deposit does not tell the real yield.
    if (free > 0 && (details.deposit_remaining ?? 1) > 0) {
      poi.yields.set(details.resource_id, Math.max(poi.yields.get(details.resource_id) ?? 0, details.quantity));
    }
  }

  /** The bid expected at a station now; with a fleet, also what a fleet-mate saw there and what others will sell. */
  estimateBid(poiId: string, item: ItemId): number | undefined {
    const own = this.markets.get(poiId);
    if (!this.fleet) return estimateBid(own, item, this.clock);
    const claimed = this.fleet.claimed(poiId, item);
    this.shared ??= sharedByStation(this.fleet);
    return fleetBid({ own, shared: this.shared.get(poiId), item, clock: this.clock, claimed });
  }

  /** What the other captains' claimed sales leave of a bid at a station (1 alone, or with nothing claimed). */
  claimFactor(poiId: string, item: ItemId): number {
    return this.fleet ? claimFactor(this.fleet.claimed(poiId, item)) : 1;
  }

  basePrice(item: ItemId): number {
    return basePrice(this.markets, item);
  }

  /** Distance in AU between two POIs of a system, when get_system told it from one of them. */
  distance(a: string, b: string): number | undefined {
    return a === b ? 0 : this.distances.get(pairKey(a, b));
  }

  poisIn(systemId: string): PoiInfo[] {
    const ids = this.systems.get(systemId)?.pois ?? [];
    return ids.map((id) => this.pois.get(id)).filter((p): p is PoiInfo => p !== undefined);
  }

  /** Shortest path of system ids (both ends included) over known lanes, or undefined. */
  route(from: string, to: string): string[] | undefined {
    return shortestPath(this.systems, from, to);
  }
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** Clock steps a tick-costing result stands for: the ticks a travel or jump says it took, else one. */
function ticksOf(observed: Observed): number {
  return Math.max(1, Math.min(20, Math.round(ticksInDetails(observed.data.details) ?? 1)));
}
