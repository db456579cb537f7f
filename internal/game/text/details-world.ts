// Details of SpaceMolt's look-around answers (get_system, get_poi, get_map, find_route, view_market, get_skills),
// read from their labels and table headers into the Mm*Details shapes, as the real server writes them
// (test/fixtures/spacemolt/real): `System: Name (id) | Empire: … | Security: <words>` over `id name type class base
// online` and `system_id name distance` (`326 GU`) tables; `POI: Name (id) | Type: asteroid_belt (metallic)`;
// `Market summary at X (n items):` with `best_sell`/`best_buy` columns. Partial text gives partial details.
import type { EmpireId, MmMarketItem, ObservedDetails, PoiType } from '../../spacemolt/index.js';
import { policeFromSecurity } from '../../spacemolt/index.js';
import { COLUMNS, cellAt, columnOf, tableWith } from './columns.js';
import {
  cell,
  findTable,
  idFrom,
  readLabels,
  readNamed,
  readNumber,
  readTables,
  readYes,
  slug,
  type TextTable,
} from './fields.js';
import { readDeposits } from './status.js';

function empire(text: string | undefined): EmpireId | null {
  const value = text?.trim().toLowerCase();
  return !value || value === '-' || value === 'none' ? null : (value as EmpireId);
}

/** MmSystemDetails['system'] without the POI positions the text does not give. */
type SystemSeen = ObservedDetails<'get_system'>['system'];

export function readSystem(text: string): ObservedDetails<'get_system'> | undefined {
  const labels = readLabels(text.split(/\r?\n/));
  const named = readNamed(labels.get('system'));
  const tables = readTables(text);
  // POIs: the table with a column of POI kinds; lanes: the one titled Connections, or with distances and no kinds.
  const poiTable = tables.find((table) => columnOf(table, COLUMNS.poiKind) !== undefined);
  const linkTable =
    tables.find((table) => table !== poiTable && /^connections\b/i.test(table.title)) ??
    tables.find((table) => table !== poiTable && columnOf(table, COLUMNS.distance) !== undefined);
  if (!named && !poiTable && !linkTable) return undefined;
  const system: SystemSeen = {};
  if (named) Object.assign(system, { id: named.id, name: named.name });
  if (labels.has('empire')) system.empire = empire(labels.get('empire'));
  const police = readNumber(labels.get('police')) ?? policeFromSecurity(labels.get('security'));
  if (police !== undefined) system.police_level = police;
  // A table that is not there, or whose ids cannot be found, leaves the POIs (or lanes) unknown, never "none".
  const pois = poiTable ? readPoiRows(poiTable) : undefined;
  if (pois) system.pois = pois;
  const links = linkTable ? readLinkRows(linkTable) : undefined;
  if (links) system.connections = links;
  return { system };
}

function readPoiRows(table: TextTable): NonNullable<SystemSeen['pois']> | undefined {
  const kind = columnOf(table, COLUMNS.poiKind);
  const taken = new Set(kind ? [kind] : []);
  const id = columnOf(table, COLUMNS.poiId, taken);
  if (!id) return undefined;
  taken.add(id);
  const name = columnOf(table, COLUMNS.name, taken);
  const base = columnOf(table, COLUMNS.base, taken);
  const distance = columnOf(table, COLUMNS.distance, taken);
  return table.rows
    .filter((row) => cellAt(row, id) !== undefined)
    .map((row) => {
      const type = (cellAt(row, kind) ?? '') as PoiType;
      const poi: NonNullable<SystemSeen['pois']>[number] = { id: cellAt(row, id) as string };
      const title = cellAt(row, name);
      if (title) poi.name = title;
      if (type) poi.type = type;
      const hasBaseHere = hasBase(type, base === undefined ? undefined : (row[base] ?? ''));
      if (hasBaseHere !== undefined) poi.has_base = hasBaseHere;
      const au = readNumber(cellAt(row, distance));
      if (au !== undefined) poi.distance = au;
      return poi;
    });
}

function readLinkRows(table: TextTable): NonNullable<SystemSeen['connections']> | undefined {
  const id = columnOf(table, COLUMNS.linkId);
  const name = columnOf(table, COLUMNS.name, new Set(id ? [id] : []));
  // System ids are their names' slugs (the status names a system only by its name, too).
  if (!id && !name) return undefined;
  const distance = columnOf(table, COLUMNS.distance);
  const police = columnOf(table, COLUMNS.police);
  const out: NonNullable<SystemSeen['connections']> = [];
  for (const row of table.rows) {
    const systemId = idFrom(cellAt(row, id)) ?? slug(cellAt(row, name) ?? '');
    if (!systemId) continue;
    const link: NonNullable<SystemSeen['connections']>[number] = { system_id: systemId };
    const title = cellAt(row, name);
    if (title) link.name = title;
    const far = readNumber(cellAt(row, distance));
    if (far !== undefined) link.distance = far;
    // The real table says no police for a neighbour: it stays unknown until the ship is there.
    const level = readNumber(cellAt(row, police)) ?? policeFromSecurity(cellAt(row, police));
    if (level !== undefined) link.police_level = level;
    out.push(link);
  }
  return out;
}

/**
 * A station has a base; the real `base` cell holds the base's name (empty elsewhere), minimolt's said yes/no. With no
 * base column and no kind, it is not known.
 */
function hasBase(type: string, base: string | undefined): boolean | undefined {
  const said = readYes(base);
  if (said !== undefined) return said;
  if (type === 'station') return true;
  if (base !== undefined) return base !== '' && base !== '-';
  return type === '' ? undefined : false;
}

export function readPoi(text: string): ObservedDetails<'get_poi'> | undefined {
  const labels = readLabels(text.split(/\r?\n/));
  const named = readNamed(labels.get('poi'));
  const tables = readTables(text);
  const deposits = readDeposits(tables);
  if (!named && !deposits) return undefined;
  const poi: ObservedDetails<'get_poi'>['poi'] = {};
  if (named) Object.assign(poi, { id: named.id, name: named.name });
  // "asteroid_belt (metallic)": the kind, then its class.
  const type = labels.get('type')?.split(/\s+/)[0];
  if (type) poi.type = type as PoiType;
  const base = readYes(labels.get('base'));
  if (base !== undefined) poi.has_base = base;
  const system = labels.get('system');
  if (system) poi.system_id = readNamed(system)?.id ?? system;
  if (poi.has_base === undefined && type) poi.has_base = type === 'station';
  // A deposits table the reader could not find leaves them unknown: never "nothing here".
  if (deposits) poi.resources = deposits;
  return { poi };
}

/** A map table: a row per system with its lanes (by header: id, name, empire, police, station, connections). */
export function readMap(text: string): ObservedDetails<'get_map'> | undefined {
  const table = tableWith(readTables(text), COLUMNS.connections);
  if (!table) return undefined;
  const lanes = columnOf(table, COLUMNS.connections);
  const id = columnOf(table, COLUMNS.linkId, new Set(lanes ? [lanes] : []));
  const name = columnOf(table, COLUMNS.name, new Set([lanes, id].filter((c): c is string => c !== undefined)));
  if (!id && !name) return undefined;
  const police = columnOf(table, COLUMNS.police);
  const station = columnOf(table, COLUMNS.station);
  const owner = columnOf(table, COLUMNS.empire);
  const systems: ObservedDetails<'get_map'>['systems'] = [];
  for (const row of table.rows) {
    const systemId = idFrom(cellAt(row, id)) ?? slug(cellAt(row, name) ?? '');
    if (!systemId) continue;
    const system: ObservedDetails<'get_map'>['systems'][number] = {
      id: systemId,
      connections: (cellAt(row, lanes) ?? '')
        .split(',')
        .map((lane) => lane.trim())
        .filter((lane) => lane && lane !== '-'),
    };
    const title = cellAt(row, name);
    if (title) system.name = title;
    if (owner) system.empire = empire(row[owner]);
    // A column the map does not have is not known: no police column is not police 0, no station column not "none".
    const level = readNumber(cellAt(row, police)) ?? policeFromSecurity(cellAt(row, police));
    if (level !== undefined) system.police_level = level;
    const hasStation = readYes(cellAt(row, station));
    if (hasStation !== undefined) system.has_station = hasStation;
    systems.push(system);
  }
  return systems.length > 0 ? { systems } : undefined;
}

export function readRoute(text: string): ObservedDetails<'find_route'> | undefined {
  const jumps = /(\d+)\s*jump/i.exec(text);
  const fuel = /(\d[\d,]*)\s*fuel/i.exec(text);
  const path = text.split(/\r?\n/).find((line) => line.includes('->'));
  if (!jumps && !path) return undefined;
  const out: ObservedDetails<'find_route'> = {};
  if (path)
    out.route = path
      .split('->')
      .map((id) => id.trim())
      .filter(Boolean);
  const jumpCount = readNumber(jumps?.[1]);
  if (jumpCount !== undefined) out.jumps = jumpCount;
  const fuelEstimate = readNumber(fuel?.[1]);
  if (fuelEstimate !== undefined) out.fuel_estimate = fuelEstimate;
  return out;
}

/**
 * A market, by its table's columns: the real summary (`Market summary at Market Prime Exchange (482 items):` over
 * `category item_id item_name best_sell best_buy spread sell_qty buy_qty`) or minimolt's former `Market at X (id) in
 * Y (id):` over `item_id bid ask base`. best_buy is the best buy order — what a seller gets (our bid); best_sell the
 * best sell order — what a buyer pays (our ask). An empty bid cell is no order: nobody buys the item here (bid 0); a
 * table with no bid column at all leaves every bid unknown.
 */
export function readMarket(text: string): ObservedDetails<'view_market'> | undefined {
  const lines = text.split(/\r?\n/);
  const table = readTables(text).find(
    (candidate) =>
      columnOf(candidate, COLUMNS.itemId) !== undefined &&
      (columnOf(candidate, COLUMNS.bid) !== undefined || columnOf(candidate, COLUMNS.ask) !== undefined),
  );
  const title = lines.map((line) => line.trim()).find((line) => /^market (summary )?at /i.test(line));
  if (!table && !title) return undefined;
  const out: ObservedDetails<'view_market'> = {};
  const station = marketStation(title);
  if (station) out.station = station;
  if (table) out.items = marketItems(table);
  const labels = readLabels(lines.filter((line) => !line.includes('\t')));
  const fuel = readNumber(labels.get('fuel'));
  if (fuel !== undefined) out.fuel_price = fuel;
  const repair = readNumber(labels.get('repair'));
  if (repair !== undefined) out.repair_price = repair;
  return out;
}

/** The station a market's title names: "Market summary at Name (n items):" or "Market at Name (id) in Sys (id):". */
function marketStation(title: string | undefined): ObservedDetails<'view_market'>['station'] | undefined {
  if (!title) return undefined;
  const former = /^market at\s+(.*\))\s+in\s+(.*\))/i.exec(title);
  if (former) {
    const station = readNamed(former[1]);
    const system = readNamed(former[2]);
    return station ? { poi_id: station.id, system_id: system?.id ?? '', name: station.name } : undefined;
  }
  const name = /^market (?:summary )?at\s+(.*?)(?:\s+\(\d[\d,]*\s+items?\))?:?$/i.exec(title)?.[1];
  if (!name) return undefined;
  const named = readNamed(name);
  return named ? { poi_id: named.id, name: named.name } : { name };
}

function marketItems(table: TextTable): NonNullable<ObservedDetails<'view_market'>['items']> {
  const id = columnOf(table, COLUMNS.itemId);
  const label = columnOf(table, COLUMNS.itemName, new Set(id ? [id] : []));
  const bid = columnOf(table, COLUMNS.bid);
  const ask = columnOf(table, COLUMNS.ask);
  const base = columnOf(table, { names: ['base_price', 'base'] });
  const items: NonNullable<ObservedDetails<'view_market'>['items']> = [];
  for (const row of table.rows) {
    const itemId = idFrom(cellAt(row, id)) ?? slug(cellAt(row, label) ?? '');
    if (!itemId) continue;
    const item: NonNullable<ObservedDetails<'view_market'>['items']>[number] = {
      item_id: itemId as MmMarketItem['item_id'],
    };
    if (bid !== undefined) item.bid = readNumber(cellAt(row, bid)) ?? 0;
    const price = readNumber(cellAt(row, ask));
    if (price !== undefined) item.ask = price;
    const basePrice = readNumber(cellAt(row, base));
    if (basePrice !== undefined) item.base_price = basePrice;
    items.push(item);
  }
  return items;
}

/** `current_tick=1333537` — the only tick any real text states (view_market's closing line). */
export function readTick(text: string): number | undefined {
  return readNumber(/^\s*current_tick=(\d+)/m.exec(text)?.[1]);
}

export function readSkills(text: string): ObservedDetails<'get_skills'> | undefined {
  const table = findTable(readTables(text), ['skill', 'level']);
  if (!table) return undefined;
  const skills: ObservedDetails<'get_skills'>['skills'] = {};
  for (const row of table.rows) {
    const name = cell(row, 'skill');
    if (!name) continue;
    // The real get_skills writes `3/100` (level of 100) and `162/585 XP` (progress); get_status `3` and `162`, `585`.
    const progress = /(\d[\d,]*)\s*\/\s*(\d[\d,]*)/.exec(cell(row, 'progress') ?? '');
    skills[name] = {
      level: readNumber(cell(row, 'level')) ?? 0,
      xp: readNumber(cell(row, 'xp')) ?? readNumber(progress?.[1]) ?? 0,
      next_level_xp: readNumber(cell(row, 'next_level', 'next_level_xp')) ?? readNumber(progress?.[2]) ?? 0,
    };
  }
  return { skills };
}
