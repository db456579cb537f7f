// One JSON answer -> the same GameObservation the text readers give (one reader, two encodings). The legacy /mcp face
// answers JSON in content[0].text (test/fixtures/spacemolt/real: Zoea-Nova's get_notifications and get_system,
// spacemolt-news' get_system with `system.pois[]`, `system.connections[]` and `security_status`, its view_market
// `items[]` with `best_buy`/`best_sell` where 0 means no orders), and a moving game renames keys: every field is looked
// up under its known names in any casing (fields.ts), a key not found leaves its fact unknown, never false or 0. An
// action answer's `message` sentence is read by the text readers too. Never throws.
import type { DetailedOp, GameObservation, GameOp, ItemId, ObservedDetails, PoiType } from '../../spacemolt/index.js';
import { hasDetails } from '../../spacemolt/index.js';
import { policeFromSecurity } from '../../spacemolt/index.js';
import { POI_KINDS } from '../text/columns.js';
import { idFrom, slug } from '../text/fields.js';
import { bool, field, idOf, isObject, list, num, obj, str, type Json } from './fields.js';
import { readJsonActionDetails } from './actions.js';

type Location = NonNullable<GameObservation['location']>;
type SystemDetails = NonNullable<ObservedDetails<'get_system'>['system']>;

/** Police from a number or from security words, wherever the object keeps them. */
export function policeOf(object: Json | undefined): number | undefined {
  const level = num(field(object, 'police_level', 'police', 'policeLevel'));
  if (level !== undefined) return level;
  const words = str(field(object, 'security_status', 'security', 'security_level', 'sec'));
  return policeFromSecurity(words);
}

function definedOnly<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}

function readPlayer(json: Json): GameObservation['player'] | undefined {
  const player = obj(json, 'player', 'pilot', 'account', 'character');
  const source = player ?? (field(json, 'credits') !== undefined ? json : undefined);
  if (!source) return undefined;
  const out = definedOnly({
    id: str(field(source, 'player_id', 'id')),
    username: str(field(source, 'username', 'name', 'pilot_name')),
    empire: str(field(source, 'empire', 'faction_empire')) as NonNullable<GameObservation['player']>['empire'],
    credits: num(field(source, 'credits', 'balance', 'wallet')),
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

function readShip(json: Json): GameObservation['ship'] | undefined {
  const ship = obj(json, 'ship', 'vessel') ?? obj(obj(json, 'player'), 'ship');
  if (!ship) return undefined;
  const cargo = field(ship, 'cargo_used', 'hold_used', 'cargo_load', 'cargo');
  const out = definedOnly({
    name: str(field(ship, 'name', 'ship_name', 'class', 'class_id')),
    hull: num(field(ship, 'hull', 'hull_points')),
    max_hull: num(field(ship, 'max_hull', 'hull_max', 'maxhull')),
    fuel: num(field(ship, 'fuel')),
    max_fuel: num(field(ship, 'max_fuel', 'fuel_max', 'fuel_capacity')),
    cargo_used: typeof cargo === 'object' ? undefined : num(cargo),
    cargo_capacity: num(field(ship, 'cargo_capacity', 'cargo_max', 'hold_capacity', 'max_cargo')),
    speed: num(field(ship, 'speed')),
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Docked: a base id (docked there), null or "" (not docked), a boolean; undefined when the answer does not say. */
function readDocked(source: Json | undefined): { docked?: boolean; at?: string } {
  const value = field(source, 'docked_at_base', 'docked_at', 'docked_poi', 'station_id', 'dock', 'docked');
  if (value === undefined) return {};
  if (value === null || value === '' || value === false) return { docked: false };
  if (value === true) return { docked: true };
  const at = str(value);
  return at ? { docked: true, at } : {};
}

function readTransit(json: Json, player: Json | undefined): Partial<Location> | undefined {
  const travel = obj(json, 'travel', 'transit', 'in_transit') ?? obj(player, 'travel', 'transit');
  const flag = bool(field(json, 'in_transit', 'traveling', 'travelling')) ?? bool(field(player, 'in_transit'));
  if (!travel && flag !== true) return flag === false ? { in_transit: false } : undefined;
  const out: Partial<Location> = { in_transit: true, poi_id: null, poi_name: null, poi_type: null, docked: false };
  const kind = str(field(travel, 'kind', 'type', 'mode'))?.toLowerCase();
  const to = str(field(travel, 'destination', 'to', 'target', 'destination_id'));
  if (to) out.destination = kind === 'jump' ? { system_id: to, poi_id: null } : { system_id: '', poi_id: to };
  const left = num(field(travel, 'ticks_remaining', 'eta', 'eta_ticks', 'remaining'));
  if (left !== undefined) out.ticks_remaining = left;
  return out;
}

function readLocation(json: Json): GameObservation['location'] | undefined {
  const player = obj(json, 'player', 'pilot');
  const where = obj(json, 'location', 'position') ?? player ?? json;
  const transit = readTransit(json, player);
  if (transit?.in_transit) return transit as Location;
  const out: Partial<Location> = { ...readSystemPlace(where), ...readPoiPlace(where) };
  const police = policeOf(where) ?? policeOf(json) ?? policeOf(obj(json, 'system'));
  if (police !== undefined) out.police_level = police;
  if (transit?.in_transit === false || Object.keys(out).length > 0) out.in_transit = false;
  return Object.keys(out).length > 1 ? (out as Location) : undefined;
}

/** The system a status names: an id (or an object with one), else its name's slug. */
function readSystemPlace(where: Json): Partial<Location> {
  const value = field(where, 'current_system', 'system_id', 'system');
  const id = idOf(value, 'system_id');
  const name = str(field(where, 'system_name')) ?? (isObject(value) ? str(field(value, 'name')) : undefined);
  const out: Partial<Location> = {};
  if (id) out.system_id = id;
  else if (name) out.system_id = slug(name);
  if (name) out.system_name = name;
  return out;
}

/** The POI a status names, and whether the ship is docked there (a base id docked at says both). */
function readPoiPlace(where: Json): Partial<Location> {
  const value = field(where, 'current_poi', 'poi_id', 'poi');
  const docked = readDocked(where);
  const out: Partial<Location> = {};
  const id = idOf(value, 'poi_id') ?? docked.at;
  if (id) out.poi_id = id;
  else if (value === null) out.poi_id = null;
  const name = isObject(value) ? str(field(value, 'name')) : undefined;
  if (name) out.poi_name = name;
  if (docked.docked !== undefined) out.docked = docked.docked;
  if (docked.docked) out.poi_type = 'station' satisfies PoiType;
  return out;
}

function readCargo(json: Json): GameObservation['cargo'] | undefined {
  const items = list(json, 'cargo', 'hold', 'inventory', 'items') ?? list(obj(json, 'ship'), 'cargo', 'hold');
  if (!items) return undefined;
  const out: NonNullable<GameObservation['cargo']> = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const id =
      idFrom(str(field(item, 'item_id', 'id', 'item', 'resource_id'))) ??
      slug(str(field(item, 'name', 'item_name')) ?? '');
    const quantity = num(field(item, 'quantity', 'qty', 'amount', 'count'));
    if (id && quantity !== undefined) out.push({ item_id: id as ItemId, quantity });
  }
  return out;
}

/** A list of lanes: ids, or objects naming a system. */
function readLaneIds(values: unknown[] | undefined): string[] | undefined {
  return values
    ?.map((value) => idOf(value, 'system_id', 'destination', 'target_system', 'to'))
    .filter((id): id is string => id !== undefined);
}

function readSystemDetails(json: Json): ObservedDetails<'get_system'> | undefined {
  const system = obj(json, 'system') ?? json;
  const pois =
    list(system, 'pois', 'points_of_interest', 'locations', 'places') ??
    list(json, 'pois') ??
    poiListByKinds(system) ??
    poiListByKinds(json);
  const links = list(system, 'connections', 'lanes', 'links', 'neighbors') ?? list(json, 'connections');
  const id = str(field(system, 'id', 'system_id'));
  if (!id && !pois && !links) return undefined;
  const out: SystemDetails = {};
  if (id) out.id = id;
  const name = str(field(system, 'name', 'system_name'));
  if (name) out.name = name;
  const empire = field(system, 'empire');
  if (empire !== undefined) out.empire = (str(empire) ?? null) as SystemDetails['empire'];
  const police = policeOf(system) ?? policeOf(json);
  if (police !== undefined) out.police_level = police;
  if (pois) out.pois = pois.map(readPoiSummary).filter((poi) => poi !== undefined);
  if (links) out.connections = links.map(readLink).filter((link) => link !== undefined);
  return { system: out };
}

/** A list under a key no reader knows whose objects carry POI kinds (`station`, `asteroid_belt`…): the POIs. */
function poiListByKinds(object: Json): unknown[] | undefined {
  for (const value of Object.values(object)) {
    if (Array.isArray(value) && value.some((item) => isObject(item) && kindIn(item) !== undefined)) return value;
  }
  return undefined;
}

/** The POI kind an object states, under any key. */
function kindIn(object: Json): string | undefined {
  const named = str(field(object, 'type', 'kind', 'poi_type', 'poi_kind'));
  if (named) return named;
  for (const value of Object.values(object))
    if (typeof value === 'string' && POI_KINDS.has(value.toLowerCase())) return value;
  return undefined;
}

type PoiSummary = NonNullable<SystemDetails['pois']>[number];

function readPoiSummary(value: unknown): PoiSummary | undefined {
  const id = idOf(value, 'poi_id');
  if (!id) return undefined;
  if (!isObject(value)) return { id };
  const out: PoiSummary = { id };
  const name = str(field(value, 'name', 'display_name'));
  if (name) out.name = name;
  const type = kindIn(value);
  if (type) out.type = type as PoiType;
  const base = field(value, 'has_base', 'base', 'has_station', 'dockable', 'station');
  const hasBase = bool(base) ?? (typeof base === 'string' ? true : base === null ? false : undefined);
  if (hasBase !== undefined) out.has_base = hasBase;
  else if (type) out.has_base = type === 'station';
  const distance = num(field(value, 'distance', 'distance_au'));
  if (distance !== undefined) out.distance = distance;
  return out;
}

type Link = NonNullable<SystemDetails['connections']>[number];

function readLink(value: unknown): Link | undefined {
  const id = idOf(value, 'system_id', 'destination', 'target_system');
  if (!id) return undefined;
  if (!isObject(value)) return { system_id: id };
  const out: Link = { system_id: id };
  const name = str(field(value, 'name'));
  if (name) out.name = name;
  const distance = num(field(value, 'distance', 'dist'));
  if (distance !== undefined) out.distance = distance;
  const police = policeOf(value);
  if (police !== undefined) out.police_level = police;
  return out;
}

function readPoiDetails(json: Json): ObservedDetails<'get_poi'> | undefined {
  const poi = obj(json, 'poi', 'location') ?? json;
  const id = str(field(poi, 'id', 'poi_id'));
  const resources = list(poi, 'resources', 'deposits');
  if (!id && !resources) return undefined;
  const out: ObservedDetails<'get_poi'>['poi'] = {};
  if (id) out.id = id;
  const name = str(field(poi, 'name'));
  if (name) out.name = name;
  const type = str(field(poi, 'type', 'kind'));
  if (type) out.type = type as PoiType;
  const system = idOf(field(poi, 'system_id', 'system'), 'system_id');
  if (system) out.system_id = system;
  const base = bool(field(poi, 'has_base', 'base'));
  if (base !== undefined) out.has_base = base;
  else if (type) out.has_base = type === 'station';
  if (resources) out.resources = resources.map(readDeposit).filter((deposit) => deposit !== undefined);
  return { poi: out };
}

type Deposit = NonNullable<ObservedDetails<'get_poi'>['poi']['resources']>[number];

function readDeposit(value: unknown): Deposit | undefined {
  if (!isObject(value)) return undefined;
  const id =
    idFrom(str(field(value, 'resource_id', 'item_id', 'id', 'resource'))) ?? slug(str(field(value, 'name')) ?? '');
  const remaining = num(field(value, 'remaining', 'units', 'amount', 'quantity'));
  if (!id || remaining === undefined) return undefined;
  const out: Deposit = { resource_id: id as ItemId, remaining };
  const richness = num(field(value, 'richness', 'density'));
  if (richness !== undefined) out.richness = richness;
  const max = num(field(value, 'max', 'max_remaining', 'capacity'));
  if (max !== undefined) out.max = max;
  return out;
}

function readMapDetails(json: Json): ObservedDetails<'get_map'> | undefined {
  const systems = list(json, 'systems', 'galaxy', 'map', 'star_systems');
  if (!systems) return undefined;
  const out: ObservedDetails<'get_map'>['systems'] = [];
  for (const value of systems) {
    if (!isObject(value)) continue;
    const id = str(field(value, 'id', 'system_id'));
    if (!id) continue;
    const system: ObservedDetails<'get_map'>['systems'][number] = { id };
    const name = str(field(value, 'name'));
    if (name) system.name = name;
    const empire = field(value, 'empire');
    if (empire !== undefined) system.empire = (str(empire) ?? null) as typeof system.empire;
    const police = policeOf(value);
    if (police !== undefined) system.police_level = police;
    const station = bool(field(value, 'has_station', 'station', 'has_base', 'stations'));
    if (station !== undefined) system.has_station = station;
    const lanes = readLaneIds(list(value, 'connections', 'lanes', 'links', 'neighbors'));
    if (lanes) system.connections = lanes;
    out.push(system);
  }
  return out.length > 0 ? { systems: out } : undefined;
}

type MarketItem = NonNullable<ObservedDetails<'view_market'>['items']>[number];

/**
 * A market: `items[]` with best_buy (what a seller gets: our bid) and best_sell (our ask), where 0 or an empty value
 * is no order (no buyers at all for the bid); or `buy_orders[]`/`sell_orders[]` of `{item_id, price}`. A bid whose key
 * is not there at all stays unknown.
 */
function readMarketDetails(json: Json): ObservedDetails<'view_market'> | undefined {
  const items = list(json, 'items', 'market', 'listings', 'goods');
  const buys = list(json, 'buy_orders', 'bids');
  const sells = list(json, 'sell_orders', 'asks');
  if (!items && !buys && !sells) return undefined;
  const byItem = new Map<string, MarketItem>();
  const entry = (id: string): MarketItem => {
    const known = byItem.get(id) ?? { item_id: id as ItemId };
    byItem.set(id, known);
    return known;
  };
  for (const value of items ?? []) if (isObject(value)) readMarketItem(value, entry);
  readOrders(buys, 'bid', entry);
  readOrders(sells, 'ask', entry);
  const out: ObservedDetails<'view_market'> = { items: [...byItem.values()] };
  const station = readStation(field(json, 'station', 'base', 'poi'));
  if (station) out.station = station;
  return out;
}

/** One `items[]` row: its bid (0 when its key holds no order), ask and base price. */
function readMarketItem(value: Json, entry: (id: string) => MarketItem): void {
  const id = idFrom(str(field(value, 'item_id', 'id', 'item'))) ?? slug(str(field(value, 'item_name', 'name')) ?? '');
  if (!id) return;
  const item = entry(id);
  const bidKey = field(value, 'best_buy', 'bid', 'buy_price', 'highest_buy', 'top_bid');
  if (bidKey !== undefined) item.bid = num(bidKey) ?? 0;
  const ask = num(field(value, 'best_sell', 'ask', 'sell_price', 'lowest_sell', 'low_ask'));
  if (ask !== undefined && ask > 0) item.ask = ask;
  const base = num(field(value, 'base_price', 'base'));
  if (base !== undefined) item.base_price = base;
}

/** Order lists: the best buy order is the bid, the best sell order the ask. */
function readOrders(orders: unknown[] | undefined, side: 'bid' | 'ask', entry: (id: string) => MarketItem): void {
  for (const value of orders ?? []) {
    if (!isObject(value)) continue;
    const id = idFrom(str(field(value, 'item_id', 'id', 'item')));
    const price = num(field(value, 'price', 'price_each'));
    if (!id || price === undefined) continue;
    const item = entry(id);
    const known = item[side];
    item[side] = known === undefined ? price : side === 'bid' ? Math.max(known, price) : Math.min(known, price);
  }
}

function readStation(station: unknown): ObservedDetails<'view_market'>['station'] | undefined {
  if (isObject(station)) {
    return definedOnly({
      poi_id: str(field(station, 'poi_id', 'id')),
      name: str(field(station, 'name')),
      system_id: str(field(station, 'system_id')),
    });
  }
  const name = str(station);
  return name ? { name } : undefined;
}

function readSkillsDetails(json: Json): ObservedDetails<'get_skills'> | undefined {
  const skills = field(json, 'skills');
  const out: ObservedDetails<'get_skills'>['skills'] = {};
  const add = (name: string | undefined, value: Json): void => {
    if (!name) return;
    out[name] = {
      level: num(field(value, 'level')) ?? 0,
      xp: num(field(value, 'xp', 'experience')) ?? 0,
      next_level_xp: num(field(value, 'next_level_xp', 'next_level', 'xp_to_next')) ?? 0,
    };
  };
  // Either a list of skills that name themselves, or an object keyed by skill (minimolt's /mcp JSON).
  if (Array.isArray(skills)) {
    for (const value of skills) if (isObject(value)) add(str(field(value, 'skill', 'name', 'id')), value);
  } else if (isObject(skills)) {
    for (const [name, value] of Object.entries(skills)) if (isObject(value)) add(name, value);
  }
  return Object.keys(out).length > 0 ? { skills: out } : undefined;
}

function readRouteDetails(json: Json): ObservedDetails<'find_route'> | undefined {
  const route = readLaneIds(list(json, 'route', 'path', 'systems'));
  const jumps = num(field(json, 'jumps', 'total_jumps'));
  if (!route && jumps === undefined) return undefined;
  return definedOnly({ route, jumps, fuel_estimate: num(field(json, 'fuel_estimate', 'fuel', 'fuel_needed')) });
}

const WORLD_READERS: Partial<{ readonly [Op in DetailedOp]: (json: Json) => ObservedDetails<Op> | undefined }> = {
  get_system: readSystemDetails,
  get_poi: readPoiDetails,
  get_map: readMapDetails,
  view_market: readMarketDetails,
  get_skills: readSkillsDetails,
  find_route: readRouteDetails,
};

/** A JSON answer's observation: the state it carries, the op's details and the tick. */
export function readJsonObservation(op: GameOp | undefined, json: Json): GameObservation {
  const out: GameObservation = { ...(op ? { op } : {}), ...readJsonState(op, json) };
  if (op && hasDetails(op)) {
    const reader = WORLD_READERS[op] as ((json: Json) => unknown) | undefined;
    const details = reader ? reader(json) : readJsonActionDetails(op, json);
    if (details !== undefined) out.details = details;
  }
  const tick = num(field(json, 'current_tick', 'tick'));
  if (tick !== undefined) out.tick = tick;
  return out;
}

/** The ship as a JSON answer states it. Only a status-like answer places the ship: a get_system's or get_poi's own
 * id is the place described, not where the ship is. */
function readJsonState(op: GameOp | undefined, json: Json): GameObservation {
  const out: GameObservation = {};
  const player = readPlayer(json);
  if (player) out.player = player;
  const ship = readShip(json);
  if (ship) out.ship = ship;
  const statusLike =
    op === undefined || op === 'get_status' || op === 'login' || player !== undefined || ship !== undefined;
  const location = statusLike ? readLocation(json) : undefined;
  if (location) out.location = location;
  const cargo = statusLike || op === 'get_cargo' ? readCargo(json) : undefined;
  if (cargo) out.cargo = cargo;
  const lanes = op === 'get_status' ? readLaneIds(list(json, 'connections', 'lanes')) : undefined;
  if (lanes) out.connections = lanes;
  return out;
}
