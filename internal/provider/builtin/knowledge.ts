// What the autopilot has learned about the game from the tool results it was shown: the latest ship state, the map,
// systems, POIs, their deposits and the distances between them, station markets. Results are read by the op they
// answered (never by tool name) and ingested once, by message id, so the stubs that replace older results in later
// contexts (no `data`) cost nothing. SpaceMolt's results carry no tick: the knowledge keeps its own clock. In a fleet it
// also holds what the fleet-mates learned: their markets, the systems they surveyed and the dangers they met.
import type { Message, ToolCall } from '../../shared/index.js';
import type { FleetKnowledgePort, SharedDanger, SharedMarketView, SharedSystemView } from '../../spacemolt/index.js';
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
import { OP_KINDS, ShipBelief, detailsOf, ticksInDetails } from '../../spacemolt/index.js';
import { type MarketInfo, basePrice, emptyMarket, estimateBid, ingestMarket, ingestSell } from './markets.js';
import { claimFactor, fleetBid, publishMarket, sharedByStation } from './fleet-markets.js';
import { type Observed, callsById, errorCode, observe } from './observation.js';
import { addLanes, addRoute, shortestPath } from './lanes.js';
import { mergeSystems, publishSystem } from './fleet-routes.js';
import { destroyedIn, hullLoss } from './fleet-dangers.js';
import { POLICE_UNKNOWN } from './position.js';

export { BASE_PRICES, type BidInfo, type MarketInfo } from './markets.js';

/** The ship as the policies read it (Knowledge.dashboard, from the belief). */
export interface Dashboard {
  player: StatusPlayer;
  ship: MmShip;
  location: MmLocation;
  /** The hold as best known: told, or (cargoKnown false) what the actions since put in it. */
  cargo: MmCargoItem[];
  /** Whether the game said what the hold holds (else `cargo` is a lower bound). */
  cargoKnown: boolean;
}

export interface SystemInfo {
  id: string;
  name: string;
  /** Unknown until an answer states it (a map with no police column, a lane's far end): see assumedPolice. */
  policeLevel?: number;
  /** Unknown until the map or get_system says whether the system has one. */
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
  /** Looked at on the spot (get_poi, or view_market at a station), whether or not its answer could be read. */
  surveyed?: boolean;
}

type SystemDetails = NonNullable<ObservedDetails<'get_system'>['system']>;
type SystemLink = NonNullable<SystemDetails['connections']>[number];
type SystemPoi = NonNullable<SystemDetails['pois']>[number];

/** A deposit as get_poi told it (the text may leave out its maximum). */
export type Deposit = NonNullable<ObservedDetails<'get_poi'>['poi']['resources']>[number];

const MINING_TYPES: ReadonlySet<string> = new Set(['asteroid_belt', 'ice_field', 'gas_cloud']);

/** A system's police for the policies' sums: as stated, else POLICE_UNKNOWN (neither lawless nor safe). */
export function assumedPolice(system: SystemInfo | undefined): number {
  return system?.policeLevel ?? POLICE_UNKNOWN;
}

/** What mining there is known to give: its deposits as read, or what mines there brought up. */
export function miningKnown(poi: PoiInfo): boolean {
  return poi.deposits !== undefined || poi.yields.size > 0;
}

export function isMiningPoi(poi: PoiInfo): boolean {
  return poi.type !== undefined && MINING_TYPES.has(poi.type);
}

/** Queries whose failure is remembered so they are not asked again in the same place for a while. */
const QUERY_MEMO: ReadonlySet<string> = new Set([
  'get_system',
  'get_poi',
  'view_market',
  'get_map',
  'find_route',
  'get_cargo',
]);
/** Steps of the clock (turns and actions) before a read that failed in a place is tried there again. */
export const READ_RETRY_STEPS = 40;

/** Whether an answer gave nothing its op is asked for (details that do not fit are as good as none). */
const READ_NOTHING: Readonly<Record<string, (data: GameObservation) => boolean>> = {
  get_map: (data) => (detailsOf('get_map', data.details)?.systems.length ?? 0) === 0,
  get_system: (data) => {
    const system = detailsOf('get_system', data.details)?.system;
    return !system?.id || (system.pois === undefined && system.connections === undefined);
  },
  // Asked for the deposits (and where the ship is): a mining POI whose deposits could not be read is a failed read.
  get_poi: (data) => {
    const poi = detailsOf('get_poi', data.details)?.poi;
    const mining = poi?.type === undefined || MINING_TYPES.has(poi.type);
    return !poi?.id || (mining && poi.resources === undefined);
  },
  // A market is read for what it pays: items whose bids could not be read teach nothing about who buys what.
  view_market: (data) => !(detailsOf('view_market', data.details)?.items ?? []).some((item) => item.bid !== undefined),
  find_route: (data) => (detailsOf('find_route', data.details)?.route?.length ?? 0) === 0,
  get_cargo: (data) => data.cargo === undefined,
};

/** Whether an answer gave nothing its op is asked for (details that do not fit are as good as none). */
function readNothing(op: string, data: GameObservation): boolean {
  return READ_NOTHING[op]?.(data) ?? false;
}

export interface KnowledgeOptions {
  /** The fleet this captain shares markets with (`skipper fleet`); alone when absent. */
  fleet?: FleetKnowledgePort;
  /** Epoch ms, to date what is shared with the fleet; Date.now by default. */
  now?: () => number;
}

export class Knowledge {
  /** The ship, fact by fact, with where each fact came from (spacemolt/belief.ts): the dashboard is read from it. */
  readonly belief = new ShipBelief();
  readonly systems = new Map<string, SystemInfo>();
  readonly pois = new Map<string, PoiInfo>();
  readonly markets = new Map<string, MarketInfo>();
  mapKnown = false;
  /** Systems the ship has been seen in. */
  readonly visited = new Set<string>();
  /**
   * Reads that failed, by query key (op + canonical args + where): refused, or answered with nothing the readers
   * could read. A failed read is a fact too: asked again there only after READ_RETRY_STEPS of the clock, and the
   * policies go around it meanwhile.
   */
  private readonly failedReads = new Map<string, number>();
  /** What could not be read, one line each, for the turn's summary (cleared when said). */
  readonly unreadable = new Map<string, string>();
  /** When each op's answer last could not be read. */
  private readonly lastUnreadable = new Map<string, number>();
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

  private picture: { key: string; dashboard: Dashboard | undefined } | undefined;
  /** Bumped when what names places (systems, POIs) changes, so the dashboard is read again. */
  private placesVersion = 0;

  /**
   * The ship as the policies read it, from the belief: undefined until its credits, ship, system and docked state are
   * known (then a status is asked). A POI the belief does not know is null; a police level nobody stated is
   * POLICE_UNKNOWN; the hold is the best known one (cargoKnown says whether it was told).
   */
  get dashboard(): Dashboard | undefined {
    const key = `${this.belief.version}/${this.placesVersion}`;
    if (this.picture?.key === key) return this.picture.dashboard;
    const player = this.belief.player();
    const ship = this.belief.ship();
    const location = this.belief.location({
      systemName: (id) => this.systems.get(id)?.name,
      poi: (id) => this.pois.get(id),
      police: (id) => this.systems.get(id)?.policeLevel,
      unknownPolice: POLICE_UNKNOWN,
    });
    const hold = this.belief.hold();
    const dashboard =
      player && ship && location ? { player, ship, location, cargo: hold.items, cargoKnown: hold.known } : undefined;
    this.picture = { key, dashboard };
    return dashboard;
  }

  /**
   * The dashboard is not confirmed by the game: an action went through whose answer did not say all it changed (the
   * real server answers `Docked at X.`; a jump says nothing of fuel), an action's outcome is unknown (cancelled,
   * timed out, a reconnect mid-call), a refusal said the picture was off, or a turn began (ticks passed).
   */
  get stale(): boolean {
    return this.belief.unconfirmed;
  }

  set stale(value: boolean) {
    if (value) this.belief.markUnconfirmed();
  }

  /** Whether a query may be asked now: not a read that failed here within READ_RETRY_STEPS. */
  mayAsk(op: string, args: Record<string, unknown>): boolean {
    const failedAt = this.failedReads.get(this.queryKey(op, args));
    return failedAt === undefined || this.clock - failedAt >= READ_RETRY_STEPS;
  }

  /** Remembers a read that gave nothing, and says so once in the turn's summary. */
  private readFailed(observed: Observed, why: string): void {
    if (!observed.op) return;
    this.failedReads.set(this.queryKey(observed.op, observed.args), this.clock);
    this.lastUnreadable.set(observed.op, this.clock);
    this.unreadable.set(observed.op, why);
  }

  /** The op's answers could not be read lately (anywhere): looking with it teaches nothing for now. */
  unreadableLately(op: string): boolean {
    const at = this.lastUnreadable.get(op);
    return at !== undefined && this.clock - at < READ_RETRY_STEPS;
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
      if (message.isError) this.ingestRefusal(observed);
      else if (isRecord(message.data)) this.ingestData(observed);
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

  /**
   * A query's memo key: where the ship is matters, as get_system and get_poi describe the current place; the map is
   * the same everywhere.
   */
  queryKey(op: string, args: Record<string, unknown>): string {
    if (op === 'get_map') return `${op} ${JSON.stringify(args)}`;
    const at = this.dashboard?.location;
    return `${op} ${JSON.stringify(args)} @${at?.system_id ?? ''}/${at?.poi_id ?? ''}`;
  }

  /** A refused call: what its words say of the ship (the game's word), and what the refusal teaches. */
  private ingestRefusal(observed: Observed): void {
    const { message, op, args, data } = observed;
    const code = errorCode(message);
    // A call cut off mid-way (or retried across a reconnect) may have gone through: its outcome is not known.
    this.belief.learn({ op, args, observation: data, isError: true, code, at: this.clock });
    if (data.reconnected) this.belief.markUnconfirmed();
    // "Sold 0 X for 0cr, 7 unsold (no buyers)" as an error: nobody buys that here.
    const item = typeof args.item_id === 'string' ? (args.item_id as ItemId) : undefined;
    const here = this.dashboard?.location;
    if (op === 'sell' && code === 'no_buyers' && item && here?.poi_id) {
      this.marketAt(here.poi_id, here.system_id).noBuyers.add(item);
      this.share(here.poi_id);
    }
    // Transient refusals say nothing about the query itself; anything else would fail again in the same place.
    const transient =
      code === 'rate_limited' || code === 'not_authenticated' || code === 'session_replaced' || code === 'cancelled';
    if (op && QUERY_MEMO.has(op) && !transient) this.readFailed(observed, `the game refused it (${code ?? 'error'})`);
  }

  private ingestData(observed: Observed): void {
    const { data, op, args } = observed;
    if (data.error) return;
    if (op === 'travel') this.learnTrip(observed);
    if (this.fleet && (op === 'travel' || op === 'jump')) this.reportHarm(destroyedIn(data.details, this.dashboard));
    const before = this.dashboard;
    this.belief.learn({ op, args, observation: data, isError: false, at: this.clock });
    if (data.reconnected) this.belief.markUnconfirmed();
    const after = this.dashboard;
    // Hull is only ever told, never reckoned: a drop between two told values is harm (pirates, in minimolt).
    if (this.fleet && data.ship && after) this.reportHarm(hullLoss(before, after));
    if (after && !after.location.in_transit) {
      this.visited.add(after.location.system_id);
      if (data.connections) addLanes(this.systems, after.location.system_id, data.connections);
    }
    this.ingestDetails(observed);
    if (op === 'get_poi' || op === 'view_market') this.surveyedHere();
    if (op && QUERY_MEMO.has(op) && readNothing(op, data)) this.readFailed(observed, `its answer could not be read`);
  }

  /** The POI the ship is at was looked at: prospecting does not come back to look again. */
  private surveyedHere(): void {
    const at = this.dashboard?.location.poi_id;
    const poi = at ? this.pois.get(at) : undefined;
    if (poi) poi.surveyed = true;
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

  private ingestMap(details: ObservedDetails<'get_map'> | undefined): void {
    if (!details) return;
    this.mapKnown = true;
    for (const system of details.systems) {
      const known = this.systems.get(system.id);
      const connections = new Set([...(known?.connections ?? []), ...(system.connections ?? [])]);
      const policeLevel = system.police_level ?? known?.policeLevel;
      const hasStation = system.has_station ?? known?.hasStation;
      this.systems.set(system.id, {
        ...known,
        id: system.id,
        name: system.name ?? known?.name ?? system.id,
        ...(policeLevel !== undefined ? { policeLevel } : {}),
        ...(hasStation !== undefined ? { hasStation } : {}),
        connections,
      });
      this.placesVersion += 1;
    }
  }

  private ingestSystem(details: ObservedDetails<'get_system'> | undefined, location: MmLocation | undefined): void {
    const system = details?.system;
    // Without the system's own id there is nothing to file what it says under.
    if (!system?.id) return;
    const systemId = system.id;
    this.ingestNeighbours(systemId, system.connections ?? []);
    this.systems.set(systemId, surveyedSystem(system as SystemDetails & { id: string }, this.systems.get(systemId)));
    this.placesVersion += 1;
    // Distances are from where the ship is: only meaningful when it is at a POI of this very system.
    this.ingestSystemPois(systemId, system.pois ?? [], location?.system_id === systemId ? location.poi_id : null);
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
          ...(link.police_level !== undefined ? { policeLevel: link.police_level } : {}),
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
        name: poi.name ?? knownPoi?.name ?? poi.id,
        // What this answer did not say (a kind, a base) stays as it was known.
        ...((poi.type ?? knownPoi?.type) !== undefined ? { type: (poi.type ?? knownPoi?.type) as PoiType } : {}),
        hasBase: poi.has_base ?? knownPoi?.hasBase ?? false,
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
      ...(poi.resources
        ? { deposits: new Map(poi.resources.map((d) => [d.resource_id, { ...d }])) }
        : known?.deposits
          ? { deposits: known.deposits }
          : {}),
    });
    this.listPoiInSystem(poiId, systemId);
    this.placesVersion += 1;
  }

  /** A POI described on the spot but missing from its system's surveyed list joins it. */
  private listPoiInSystem(poiId: string, systemId: string): void {
    const system = this.systems.get(systemId);
    if (system?.pois && !system.pois.includes(poiId)) system.pois.push(poiId);
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

/** A system as get_system describes it, over what was known: what the answer left out stays as it was. */
function surveyedSystem(system: SystemDetails & { id: string }, known: SystemInfo | undefined): SystemInfo {
  const links = system.connections ?? [];
  const policeLevel = system.police_level ?? known?.policeLevel;
  // Only a POI list says whether a station is here: without one, what was known stays.
  const hasStation = system.pois ? system.pois.some((p) => p.has_base) : known?.hasStation;
  const pois = system.pois ? system.pois.map((p) => p.id) : known?.pois;
  return {
    ...known,
    id: system.id,
    name: system.name ?? known?.name ?? system.id,
    ...(policeLevel !== undefined ? { policeLevel } : {}),
    ...(hasStation !== undefined ? { hasStation } : {}),
    connections: new Set([...(known?.connections ?? []), ...links.map((c) => c.system_id)]),
    ...(pois ? { pois } : {}),
  };
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** Clock steps a tick-costing result stands for: the ticks a travel or jump says it took, else one. */
function ticksOf(observed: Observed): number {
  return Math.max(1, Math.min(20, Math.round(ticksInDetails(observed.data.details) ?? 1)));
}
