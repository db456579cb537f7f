// Details of SpaceMolt's look-around answers (get_system, get_poi, get_map, find_route, view_market, get_skills),
// read from their labels and table headers into the Mm*Details shapes, as the real server writes them
// (test/fixtures/spacemolt/real): `System: Name (id) | Empire: … | Security: <words>` over `id name type class base
// online` and `system_id name distance` (`326 GU`) tables; `POI: Name (id) | Type: asteroid_belt (metallic)`;
// `Market summary at X (n items):` with `best_sell`/`best_buy` columns. Partial text gives partial details.
import type { EmpireId, MmMarketItem, ObservedDetails, PoiType } from '../../spacemolt/index.js';
import { policeFromSecurity } from '../../shared/index.js';
import { cell, findTable, readLabels, readNamed, readNumber, readTables, readYes, type TextTable } from './fields.js';
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
  const poiTable = findTable(tables, ['id', 'type']);
  const linkTable =
    findTable(tables, ['system_id', 'distance'], ['type']) ?? findTable(tables, ['id', 'distance'], ['type']);
  if (!named && !poiTable && !linkTable) return undefined;
  const system: SystemSeen = {};
  if (named) Object.assign(system, { id: named.id, name: named.name });
  if (labels.has('empire')) system.empire = empire(labels.get('empire'));
  const police = readNumber(labels.get('police')) ?? policeFromSecurity(labels.get('security'));
  if (police !== undefined) system.police_level = police;
  system.pois = (poiTable?.rows ?? []).map((row) => {
    const type = (cell(row, 'type') ?? '') as PoiType;
    const poi: NonNullable<SystemSeen['pois']>[number] = {
      id: cell(row, 'id') ?? '',
      name: cell(row, 'name') ?? '',
      type,
      has_base: hasBase(type, cell(row, 'base', 'has_base')),
    };
    const distance = readNumber(cell(row, 'distance_au', 'distance'));
    if (distance !== undefined) poi.distance = distance;
    return poi;
  });
  system.connections = (linkTable?.rows ?? []).map((row) => {
    const link: NonNullable<SystemSeen['connections']>[number] = {
      system_id: cell(row, 'system_id', 'id') ?? '',
      name: cell(row, 'name') ?? '',
      distance: readNumber(cell(row, 'distance', 'distance_au')) ?? 0,
    };
    // The real table says no police for a neighbour: it stays unknown until the ship is there.
    const police = readNumber(cell(row, 'police', 'police_level'));
    if (police !== undefined) link.police_level = police;
    return link;
  });
  return { system };
}

/** A station has a base; the real `base` cell holds the base's name (empty elsewhere), minimolt's said yes/no. */
function hasBase(type: string, base: string | undefined): boolean {
  const said = readYes(base);
  if (said !== undefined) return said;
  return type === 'station' || (base !== undefined && base !== '' && base !== '-');
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
  poi.resources = deposits ?? [];
  return { poi };
}

export function readMap(text: string): ObservedDetails<'get_map'> | undefined {
  const table = findTable(readTables(text), ['id', 'connections']);
  if (!table) return undefined;
  return {
    systems: table.rows.map((row) => ({
      id: cell(row, 'id') ?? '',
      name: cell(row, 'name') ?? '',
      empire: empire(cell(row, 'empire')),
      police_level: readNumber(cell(row, 'police', 'police_level')) ?? 0,
      has_station: readYes(cell(row, 'station', 'has_station')) ?? false,
      connections: (cell(row, 'connections') ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id && id !== '-'),
    })),
  };
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

export function readMarket(text: string): ObservedDetails<'view_market'> | undefined {
  const lines = text.split(/\r?\n/);
  const tables = readTables(text);
  const summary = findTable(tables, ['item_id', 'best_buy']);
  if (summary) return readMarketSummary(lines, summary);
  const table = findTable(tables, ['bid', 'ask']);
  const title = lines.find((line) => /^market at /i.test(line.trim()));
  if (!table && !title) return undefined;
  const out: ObservedDetails<'view_market'> = {};
  // "Market at Sol Station (sol_station) in Sol (sol):" (minimolt's former wording)
  const where = title ? /^market at\s+(.*\))\s+in\s+(.*\))/i.exec(title.trim()) : null;
  const station = readNamed(where?.[1]);
  const system = readNamed(where?.[2]);
  if (station) out.station = { poi_id: station.id, system_id: system?.id ?? '', name: station.name };
  out.items = (table?.rows ?? []).map((row): MmMarketItem => ({
    item_id: (cell(row, 'item_id', 'id') ?? '') as MmMarketItem['item_id'],
    bid: readNumber(cell(row, 'bid')) ?? 0,
    ask: readNumber(cell(row, 'ask')) ?? 0,
    base_price: readNumber(cell(row, 'base', 'base_price')) ?? 0,
  }));
  const labels = readLabels(lines.filter((line) => !line.includes('\t')));
  const fuel = readNumber(labels.get('fuel'));
  if (fuel !== undefined) out.fuel_price = fuel;
  const repair = readNumber(labels.get('repair'));
  if (repair !== undefined) out.repair_price = repair;
  return out;
}

/**
 * The real summary: `Market summary at Market Prime Exchange (482 items):` over `category item_id item_name best_sell
 * best_buy spread sell_qty buy_qty`. best_buy is the best buy order — what a seller gets (our bid); best_sell the best
 * sell order — what a buyer pays (our ask). An empty cell is no order: an item listed without best_buy has no buyers.
 */
function readMarketSummary(lines: readonly string[], table: TextTable): ObservedDetails<'view_market'> {
  const out: ObservedDetails<'view_market'> = {};
  const title = lines.find((line) => /^market summary at /i.test(line.trim()))?.trim();
  const name = title ? /^market summary at\s+(.*?)(?:\s+\(\d[\d,]*\s+items?\))?:?$/i.exec(title)?.[1] : undefined;
  if (name) {
    const named = readNamed(name);
    out.station = named ? { poi_id: named.id, name: named.name } : { name };
  }
  out.items = table.rows
    .filter((row) => cell(row, 'item_id') !== undefined)
    .map((row) => {
      const item: NonNullable<ObservedDetails<'view_market'>['items']>[number] = {
        item_id: cell(row, 'item_id') as MmMarketItem['item_id'],
      };
      const bid = readNumber(cell(row, 'best_buy'));
      if (bid !== undefined) item.bid = bid;
      const ask = readNumber(cell(row, 'best_sell'));
      if (ask !== undefined) item.ask = ask;
      return item;
    });
  return out;
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
