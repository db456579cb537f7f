// What the autopilot has learned about the game from the tool results it was shown: the latest dashboard, the map,
// systems, POIs and their deposits, station markets. Results are ingested once, by message id, so the one-line stubs
// that replace older results in later contexts (no `data`) cost nothing.
import type {
  ItemId,
  Message,
  MmDashboard,
  MmDeposit,
  MmMapDetails,
  MmMarketDetails,
  MmMineDetails,
  MmPoiDetails,
  MmSellDetails,
  MmSystemDetails,
  PoiType,
} from '../../shared/index.js';
import { MINIMOLT_BASE_PRICES } from '../../shared/index.js';

export interface SystemInfo {
  id: string;
  name: string;
  policeLevel: number;
  hasStation?: boolean;
  /** Neighbour system ids. */
  connections: Set<string>;
  /** POI ids, once get_system was seen for this system. */
  pois?: string[];
}

export interface PoiInfo {
  id: string;
  systemId: string;
  name: string;
  type: PoiType;
  hasBase: boolean;
  position: { x: number; y: number };
  /** Known once get_poi was seen (or mining told us about one resource). */
  deposits?: Map<ItemId, MmDeposit>;
  /** Units per mine() observed here, by resource (the real yield, mining level included). */
  yields: Map<ItemId, number>;
}

export interface BidInfo {
  /** The bid when the station is left alone (first seen, or highest seen since). */
  normal: number;
  /** The bid last known, at `tick`. */
  bid: number;
  tick: number;
}

export interface MarketInfo {
  poiId: string;
  systemId: string;
  name: string;
  bids: Map<ItemId, BidInfo>;
  basePrices: Map<ItemId, number>;
  fuelPrice: number;
  repairPrice: number;
}

export const BASE_PRICES: Readonly<Record<ItemId, number>> = MINIMOLT_BASE_PRICES;

const MINING_TYPES: ReadonlySet<PoiType> = new Set(['asteroid_belt', 'ice_field', 'gas_cloud']);

export function isMiningPoi(poi: PoiInfo): boolean {
  return MINING_TYPES.has(poi.type);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asDashboard(data: Record<string, unknown>): MmDashboard | undefined {
  const { player, ship, location, cargo, tick } = data;
  if (isRecord(player) && isRecord(ship) && isRecord(location) && Array.isArray(cargo) && typeof tick === 'number') {
    return data as unknown as MmDashboard;
  }
  return undefined;
}

export class Knowledge {
  dashboard: MmDashboard | undefined;
  readonly systems = new Map<string, SystemInfo>();
  readonly pois = new Map<string, PoiInfo>();
  readonly markets = new Map<string, MarketInfo>();
  mapKnown = false;
  /** Systems the ship has been seen in (any dashboard's location). */
  readonly visited = new Set<string>();
  /** Queries that failed (name + canonical args): not asked again. */
  readonly failedQueries = new Set<string>();
  private readonly seen = new Set<string>();

  /** Ingests the tool messages not seen before, in order. Returns them. */
  ingest(messages: readonly Message[]): Message[] {
    const fresh: Message[] = [];
    const callArgs = new Map<string, string>();
    for (const message of messages) {
      if (message.role === 'assistant') {
        for (const call of message.toolCalls ?? []) callArgs.set(call.id, `${call.name} ${call.arguments}`);
        continue;
      }
      if (message.role !== 'tool' || this.seen.has(message.id)) continue;
      this.seen.add(message.id);
      fresh.push(message);
      if (message.isError) {
        const key = message.toolCallId === undefined ? undefined : callArgs.get(message.toolCallId);
        const code = errorCode(message);
        // Transient refusals say nothing about the query itself; anything else would fail again.
        const transient = code === 'rate_limited' || code === 'not_authenticated' || code === 'session_replaced';
        if (key !== undefined && !transient && QUERY_MEMO.has(message.toolName ?? '')) this.failedQueries.add(key);
      }
      if (isRecord(message.data)) this.ingestData(message.toolName ?? '', message.data);
    }
    return fresh;
  }

  private ingestData(tool: string, data: Record<string, unknown>): void {
    if (isRecord(data.error)) return;
    const dashboard = asDashboard(data);
    const before = this.dashboard;
    if (dashboard && (before === undefined || dashboard.tick >= before.tick)) this.dashboard = dashboard;
    if (dashboard && typeof dashboard.location.system_id === 'string') this.visited.add(dashboard.location.system_id);
    const details = data.details;
    if (!isRecord(details)) return;
    const tick = dashboard?.tick ?? this.dashboard?.tick ?? 0;
    const location = dashboard?.location ?? this.dashboard?.location;
    if (tool === 'get_map' && Array.isArray(details.systems)) this.ingestMap(details as unknown as MmMapDetails);
    else if (tool === 'get_system' && isRecord(details.system)) this.ingestSystem(details as unknown as MmSystemDetails);
    else if (tool === 'get_poi' && isRecord(details.poi)) this.ingestPoi(details as unknown as MmPoiDetails);
    else if (tool === 'view_market' && isRecord(details.station)) {
      this.ingestMarket(details as unknown as MmMarketDetails, tick);
    } else if (tool === 'mine' && location?.poi_id) this.ingestMine(details as unknown as MmMineDetails, location.poi_id);
    else if (tool === 'sell' && location?.poi_id) this.ingestSell(details as unknown as MmSellDetails, location.poi_id, tick);
  }

  private ingestMap(details: MmMapDetails): void {
    this.mapKnown = true;
    for (const system of details.systems) {
      const known = this.systems.get(system.id);
      const connections = new Set([...(known?.connections ?? []), ...system.connections]);
      this.systems.set(system.id, {
        ...known,
        id: system.id,
        name: system.name,
        policeLevel: system.police_level,
        hasStation: system.has_station,
        connections,
      });
    }
  }

  private ingestSystem(details: MmSystemDetails): void {
    const { system } = details;
    const known = this.systems.get(system.id);
    const connections = new Set([...(known?.connections ?? []), ...system.connections.map((c) => c.system_id)]);
    for (const connection of system.connections) {
      if (!this.systems.has(connection.system_id)) {
        this.systems.set(connection.system_id, {
          id: connection.system_id,
          name: connection.name,
          policeLevel: connection.police_level,
          connections: new Set([system.id]),
        });
      }
    }
    this.systems.set(system.id, {
      ...known,
      id: system.id,
      name: system.name,
      policeLevel: system.police_level,
      hasStation: system.pois.some((p) => p.has_base),
      connections,
      pois: system.pois.map((p) => p.id),
    });
    for (const poi of system.pois) {
      const knownPoi = this.pois.get(poi.id);
      this.pois.set(poi.id, {
        yields: new Map(),
        ...knownPoi,
        id: poi.id,
        systemId: system.id,
        name: poi.name,
        type: poi.type,
        hasBase: poi.has_base,
        position: poi.position,
      });
    }
  }

  private ingestPoi(details: MmPoiDetails): void {
    const { poi } = details;
    const known = this.pois.get(poi.id);
    this.pois.set(poi.id, {
      yields: new Map(),
      ...known,
      id: poi.id,
      systemId: poi.system_id,
      name: poi.name,
      type: poi.type,
      hasBase: poi.has_base,
      position: poi.position,
      deposits: new Map((poi.resources ?? []).map((d) => [d.resource_id, { ...d }])),
    });
  }

  private ingestMarket(details: MmMarketDetails, tick: number): void {
    const { station } = details;
    const known = this.markets.get(station.poi_id);
    const bids = known?.bids ?? new Map<ItemId, BidInfo>();
    const basePrices = new Map<ItemId, number>();
    for (const item of details.items) {
      const previous = bids.get(item.item_id);
      bids.set(item.item_id, { normal: Math.max(previous?.normal ?? 0, item.bid), bid: item.bid, tick });
      basePrices.set(item.item_id, item.base_price);
    }
    this.markets.set(station.poi_id, {
      poiId: station.poi_id,
      systemId: station.system_id,
      name: station.name,
      bids,
      basePrices,
      fuelPrice: details.fuel_price,
      repairPrice: details.repair_price,
    });
  }

  private ingestMine(details: MmMineDetails, poiId: string): void {
    const poi = this.pois.get(poiId);
    if (!poi || typeof details.quantity !== 'number') return;
    const deposit = poi.deposits?.get(details.resource_id);
    if (deposit) deposit.remaining = details.deposit_remaining;
    const free = this.dashboard ? this.dashboard.ship.cargo_capacity - this.dashboard.ship.cargo_used : 0;
    // A mine cut short by a full hold or an empty deposit does not tell the real yield.
    if (free > 0 && details.deposit_remaining > 0) {
      poi.yields.set(details.resource_id, Math.max(poi.yields.get(details.resource_id) ?? 0, details.quantity));
    }
  }

  private ingestSell(details: MmSellDetails, poiId: string, tick: number): void {
    const market = this.markets.get(poiId);
    const q = details.quantity_sold;
    if (!market || !(q > 0)) return;
    // The bid walks down 0.5% per unit: average = b·(1 − 0.995^q)/(0.005·q), so the bid after is b·0.995^q.
    const start = (details.average_price * 0.005 * q) / (1 - 0.995 ** q);
    const after = start * 0.995 ** q;
    const known = market.bids.get(details.item_id);
    market.bids.set(details.item_id, { normal: Math.max(known?.normal ?? 0, start), bid: after, tick });
  }

  /** Estimated bid now: the gap to the normal bid recovers 2% per tick. */
  estimateBid(poiId: string, item: ItemId, tick: number): number | undefined {
    const info = this.markets.get(poiId)?.bids.get(item);
    if (!info) return undefined;
    const gap = info.normal - info.bid;
    return info.normal - gap * 0.98 ** Math.max(0, tick - info.tick);
  }

  poisIn(systemId: string): PoiInfo[] {
    const ids = this.systems.get(systemId)?.pois ?? [];
    return ids.map((id) => this.pois.get(id)).filter((p): p is PoiInfo => p !== undefined);
  }

  /** Shortest path of system ids (both ends included) over known lanes, or undefined. */
  route(from: string, to: string): string[] | undefined {
    if (from === to) return [from];
    const previous = new Map<string, string>([[from, from]]);
    const queue = [from];
    while (queue.length > 0) {
      const current = queue.shift() as string;
      for (const next of [...(this.systems.get(current)?.connections ?? [])].sort()) {
        if (previous.has(next)) continue;
        previous.set(next, current);
        if (next === to) {
          const path = [to];
          let step = to;
          while (step !== from) {
            step = previous.get(step) as string;
            path.unshift(step);
          }
          return path;
        }
        queue.push(next);
      }
    }
    return undefined;
  }
}

/** Queries whose failure is remembered so they are not asked again. */
const QUERY_MEMO: ReadonlySet<string> = new Set(['get_system', 'get_poi', 'view_market', 'get_map', 'find_route']);

/** The game's error code carried by a tool message (structuredContent.error.code, else the text prefix). */
export function errorCode(message: Message): string | undefined {
  if (!message.isError) return undefined;
  const data = message.data;
  if (isRecord(data) && isRecord(data.error) && typeof data.error.code === 'string') return data.error.code;
  const match = /^([a-z_]+):/.exec(message.content.trim());
  return match?.[1] ?? 'error';
}

export function distance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
