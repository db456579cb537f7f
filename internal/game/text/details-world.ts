// Details of SpaceMolt's look-around answers (get_system, get_poi, get_map, find_route, view_market, get_skills),
// read from their labels and table headers into the Mm*Details shapes. Partial text gives partial details.
import type { EmpireId, ItemId, MmMarketItem, ObservedDetails, PoiType } from '../../shared/index.js';
import { cell, findTable, readLabels, readNamed, readNumber, readTables, readYes } from './fields.js';

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
  const linkTable = findTable(tables, ['id', 'distance'], ['type']);
  if (!named && !poiTable && !linkTable) return undefined;
  const system: SystemSeen = {};
  if (named) Object.assign(system, { id: named.id, name: named.name });
  if (labels.has('empire')) system.empire = empire(labels.get('empire'));
  const police = readNumber(labels.get('police'));
  if (police !== undefined) system.police_level = police;
  system.pois = (poiTable?.rows ?? []).map((row) => {
    const poi: NonNullable<SystemSeen['pois']>[number] = {
      id: cell(row, 'id') ?? '',
      name: cell(row, 'name') ?? '',
      type: (cell(row, 'type') ?? '') as PoiType,
      has_base: readYes(cell(row, 'base', 'has_base')) ?? false,
    };
    const distance = readNumber(cell(row, 'distance_au', 'distance'));
    if (distance !== undefined) poi.distance = distance;
    return poi;
  });
  system.connections = (linkTable?.rows ?? []).map((row) => ({
    system_id: cell(row, 'id', 'system_id') ?? '',
    name: cell(row, 'name') ?? '',
    distance: readNumber(cell(row, 'distance', 'distance_au')) ?? 0,
    police_level: readNumber(cell(row, 'police', 'police_level')) ?? 0,
  }));
  return { system };
}

export function readPoi(text: string): ObservedDetails<'get_poi'> | undefined {
  const labels = readLabels(text.split(/\r?\n/));
  const named = readNamed(labels.get('poi'));
  const table = findTable(readTables(text), ['remaining']);
  if (!named && !table) return undefined;
  const poi: ObservedDetails<'get_poi'>['poi'] = {};
  if (named) Object.assign(poi, { id: named.id, name: named.name });
  if (labels.has('type')) poi.type = labels.get('type') as PoiType;
  const base = readYes(labels.get('base'));
  if (base !== undefined) poi.has_base = base;
  const system = labels.get('system');
  if (system) poi.system_id = readNamed(system)?.id ?? system;
  poi.resources = (table?.rows ?? []).map((row) => ({
    resource_id: (cell(row, 'item_id', 'resource_id', 'id') ?? '') as ItemId,
    richness: readNumber(cell(row, 'richness')) ?? 0,
    remaining: readNumber(cell(row, 'remaining')) ?? 0,
    max: readNumber(cell(row, 'max')) ?? 0,
  }));
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
      connections: (cell(row, 'connections') ?? '').split(',').map((id) => id.trim()).filter((id) => id && id !== '-'),
    })),
  };
}

export function readRoute(text: string): ObservedDetails<'find_route'> | undefined {
  const jumps = /(\d+)\s*jump/i.exec(text);
  const fuel = /(\d[\d,]*)\s*fuel/i.exec(text);
  const path = text.split(/\r?\n/).find((line) => line.includes('->'));
  if (!jumps && !path) return undefined;
  const out: ObservedDetails<'find_route'> = {};
  if (path) out.route = path.split('->').map((id) => id.trim()).filter(Boolean);
  const jumpCount = readNumber(jumps?.[1]);
  if (jumpCount !== undefined) out.jumps = jumpCount;
  const fuelEstimate = readNumber(fuel?.[1]);
  if (fuelEstimate !== undefined) out.fuel_estimate = fuelEstimate;
  return out;
}

export function readMarket(text: string): ObservedDetails<'view_market'> | undefined {
  const lines = text.split(/\r?\n/);
  const table = findTable(readTables(text), ['bid', 'ask']);
  const title = lines.find((line) => /^market at /i.test(line.trim()));
  if (!table && !title) return undefined;
  const out: ObservedDetails<'view_market'> = {};
  // "Market at Sol Station (sol_station) in Sol (sol):"
  const where = title ? /^market at\s+(.*\))\s+in\s+(.*\))/i.exec(title.trim()) : null;
  const station = readNamed(where?.[1]);
  const system = readNamed(where?.[2]);
  if (station) out.station = { poi_id: station.id, system_id: system?.id ?? '', name: station.name };
  out.items = (table?.rows ?? []).map(
    (row): MmMarketItem => ({
      item_id: (cell(row, 'item_id', 'id') ?? '') as MmMarketItem['item_id'],
      bid: readNumber(cell(row, 'bid')) ?? 0,
      ask: readNumber(cell(row, 'ask')) ?? 0,
      base_price: readNumber(cell(row, 'base', 'base_price')) ?? 0,
    }),
  );
  const labels = readLabels(lines.filter((line) => !line.includes('\t')));
  const fuel = readNumber(labels.get('fuel'));
  if (fuel !== undefined) out.fuel_price = fuel;
  const repair = readNumber(labels.get('repair'));
  if (repair !== undefined) out.repair_price = repair;
  return out;
}

export function readSkills(text: string): ObservedDetails<'get_skills'> | undefined {
  const table = findTable(readTables(text), ['skill', 'level']);
  if (!table) return undefined;
  const skills: ObservedDetails<'get_skills'>['skills'] = {};
  for (const row of table.rows) {
    const name = cell(row, 'skill');
    if (!name) continue;
    skills[name] = {
      level: readNumber(cell(row, 'level')) ?? 0,
      xp: readNumber(cell(row, 'xp')) ?? 0,
      next_level_xp: readNumber(cell(row, 'next_level', 'next_level_xp')) ?? 0,
    };
  }
  return { skills };
}
