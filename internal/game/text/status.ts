// The state block SpaceMolt prints for get_status (test/fixtures/spacemolt/real): `Name [empire] | 1,234cr | System
// Name`, then `Label: value` pairs joined by ` | ` (`Ship`, `Hull`, `Fuel`, `Cargo`, `Docked at: <poi_id>` only when
// docked, `Security: <words>`, `Connections: a, b`) and tab tables (`Resources (n):` at a belt, `Cargo (n items):`).
// The real text names the system only by its name and never names the POI while undocked: the system id is the
// name's slug, the POI stays absent. Read by label; a field the text does not say stays absent.
import type { EmpireId, GameObservation, MmCargoItem, MmShip, PoiType } from '../../spacemolt/index.js';
import { policeFromSecurity } from '../../spacemolt/index.js';
import { COLUMNS, cellAt, columnOf, tableWith } from './columns.js';
import {
  cell,
  idFrom,
  readLabels,
  readNamed,
  readNumber,
  readRatio,
  readTables,
  slug,
  type TextTable,
} from './fields.js';

type State = Pick<GameObservation, 'player' | 'ship' | 'location' | 'cargo' | 'connections' | 'resources'>;
type Location = NonNullable<GameObservation['location']>;

const HEADER_NAME = /^(.+?)\s*\[([A-Za-z_]+)\]$/;
const CREDITS = /^-?\d[\d,]*\s*cr$/i;

function readHeader(line: string): { username: string; empire: string; credits: number; system: string } | undefined {
  const segments = line.split(' | ').map((segment) => segment.trim());
  const named = HEADER_NAME.exec(segments[0] ?? '');
  const creditsAt = segments.findIndex((segment) => CREDITS.test(segment));
  if (!named?.[1] || !named[2] || creditsAt < 1) return undefined;
  return {
    username: named[1],
    empire: named[2].toLowerCase(),
    credits: readNumber(segments[creditsAt]) ?? 0,
    system: segments.slice(creditsAt + 1).join(' | '),
  };
}

/** A display name of an item: "Iron Ore", "Platinum Ore" (for a column no header names). */
function isItemName(cell: string): boolean {
  return /^[A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*$/.test(cell);
}

/** Cargo rows from a table with item and quantity columns; ids from an id column, else from the item's name. */
export function readCargo(tables: readonly TextTable[]): MmCargoItem[] | undefined {
  const table = tableWith(tables, COLUMNS.quantity);
  if (!table) return undefined;
  const quantityColumn = columnOf(table, COLUMNS.quantity);
  const taken = new Set(quantityColumn ? [quantityColumn] : []);
  const idColumn = columnOf(table, { names: ['item_id', 'id', 'resource_id'] }, taken);
  const nameColumn = columnOf(
    table,
    { names: ['item', 'name', 'item_name', 'good', 'resource'], cells: isItemName },
    taken,
  );
  if (!idColumn && !nameColumn) return undefined;
  const out: MmCargoItem[] = [];
  for (const row of table.rows) {
    const id = idFrom(cellAt(row, idColumn)) ?? slug(cellAt(row, nameColumn) ?? '');
    const quantity = readNumber(cellAt(row, quantityColumn));
    if (id && quantity !== undefined) out.push({ item_id: id as MmCargoItem['item_id'], quantity });
  }
  return out;
}

function readShip(labels: Map<string, string>): MmShip | undefined {
  const named = readNamed(labels.get('ship'));
  const hull = readRatio(labels.get('hull'));
  const fuel = readRatio(labels.get('fuel'));
  const cargo = readRatio(labels.get('cargo'));
  const speed = readNumber(labels.get('speed'));
  const name = named?.name ?? labels.get('ship');
  if (!name || !hull || !fuel || !cargo || speed === undefined) return undefined;
  return {
    name,
    hull: hull[0],
    max_hull: hull[1],
    fuel: fuel[0],
    max_fuel: fuel[1],
    cargo_used: cargo[0],
    cargo_capacity: cargo[1],
    speed,
  };
}

// "jump to Nexus Prime (nexus_prime), 4 tick(s) remaining" (minimolt; the real wording is not published), or an id
// first: "travel to sol_belt (Sol Belt), 2 tick(s) remaining".
const TRANSIT = /^(jump|travel)\w*\s+to\s+([^,]+?)\s*(?:,(?:.*?(\d+)\s*tick)?|$)/i;
const ID = /^[a-z0-9_.:-]+$/;

/** The target's id from `Name (id)` or `id (Name)`. */
function transitTarget(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const match = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(text);
  if (!match) return ID.test(text) ? text : slug(text);
  const [, outside = '', inside = ''] = match;
  return ID.test(inside) ? inside : ID.test(outside) ? outside : slug(outside);
}

function readLocation(labels: Map<string, string>, systemName: string | undefined): Location | undefined {
  const transit = labels.get('in transit');
  return transit !== undefined ? readTransit(transit, systemName) : readPlace(labels, systemName);
}

/** In transit the text names neither the current system's id nor its police: those stay absent. */
function readTransit(transit: string, systemName: string | undefined): Location {
  const match = TRANSIT.exec(transit);
  const jumping = match?.[1]?.toLowerCase().startsWith('jump') === true;
  const target = transitTarget(match?.[2]);
  const location: Location = {
    ...(systemName ? { system_name: systemName } : {}),
    poi_id: null,
    poi_name: null,
    poi_type: null,
    docked: false,
    in_transit: true,
  };
  if (target) location.destination = jumping ? { system_id: target, poi_id: null } : { system_id: '', poi_id: target };
  const ticks = readNumber(match?.[3]);
  if (ticks !== undefined) location.ticks_remaining = ticks;
  return location;
}

/** Where a ship that is not in transit is: the header's system, `Docked at:`, the Security words. */
function readPlace(labels: Map<string, string>, systemName: string | undefined): Location | undefined {
  // An older (and minimolt's former) wording: "Location: Sol Station (sol_station) in Sol (sol) | Police: 100".
  const where = labels.get('location');
  const match = where === undefined ? null : /^(.*\))\s+in\s+(.*\))\s*$/.exec(where);
  const poi = readNamed(match?.[1]);
  const named = readNamed(match?.[2] ?? where);
  const name = named?.name ?? systemName;
  if (!name) return undefined;
  const dockedAt = labels.get('docked at')?.trim();
  const docked = dockedAt !== undefined;
  const location: Location = { system_id: named?.id ?? slug(name), system_name: name, docked, in_transit: false };
  // Undocked, the real text does not say which POI the ship is at (get_poi does): it stays absent, not null.
  const poiId = poi?.id ?? (dockedAt || undefined);
  if (poiId) location.poi_id = poiId;
  if (poi?.name) location.poi_name = poi.name;
  // Only a station can be docked at; elsewhere the status text does not say the POI's type.
  if (docked) location.poi_type = 'station' satisfies PoiType;
  const police = readNumber(labels.get('police')) ?? policeFromSecurity(labels.get('security'));
  if (police !== undefined) location.police_level = police;
  return location;
}

/** `Connections: cargo_lanes, gold_run, haven` -> the system ids. */
function readConnections(labels: Map<string, string>): string[] | undefined {
  const line = labels.get('connections');
  if (line === undefined) return undefined;
  return line
    .split(',')
    .map((id) => id.trim())
    .filter((id) => /^[A-Za-z0-9_.:-]+$/.test(id));
}

/** A deposits table (`resource richness remaining supports_power`, or minimolt's `item_id name richness …`). */
export function readDeposits(tables: readonly TextTable[]): NonNullable<GameObservation['resources']> | undefined {
  const table =
    tableWith(tables, COLUMNS.remaining, COLUMNS.richness) ?? tables.find((t) => /^resources\b/i.test(t.title));
  if (!table) return undefined;
  const remainingColumn = columnOf(table, COLUMNS.remaining);
  if (!remainingColumn) return undefined;
  const richnessColumn = columnOf(table, COLUMNS.richness);
  const taken = new Set([remainingColumn, richnessColumn].filter((c): c is string => c !== undefined));
  const idColumn = columnOf(table, { names: ['item_id', 'resource_id', 'id'] }, taken);
  const nameColumn = columnOf(
    table,
    { names: ['resource', 'name', 'item', 'ore', 'material'], cells: isItemName },
    taken,
  );
  // Rows whose item cannot be told apart: the deposits are not known (never "none").
  if (!idColumn && !nameColumn && table.rows.length > 0) return undefined;
  const out: NonNullable<GameObservation['resources']> = [];
  for (const row of table.rows) {
    const id = idFrom(cellAt(row, idColumn)) ?? slug(cellAt(row, nameColumn) ?? '');
    const remaining = readNumber(cellAt(row, remainingColumn));
    if (!id || remaining === undefined) continue;
    const deposit: (typeof out)[number] = { resource_id: id as MmCargoItem['item_id'], remaining };
    // Richness no column states stays unknown (the planner assumes a middling one), never 0.
    const richness = readNumber(cellAt(row, richnessColumn));
    if (richness !== undefined) deposit.richness = richness;
    const max = readNumber(cell(row, 'max'));
    if (max !== undefined) deposit.max = max;
    out.push(deposit);
  }
  return out;
}

// The live server's answer while under way (any call, status or not): `IN TRANSIT (jump) | From: gsc_0051 → To: segin
// | ETA: 2 ticks` (test/fixtures/spacemolt/real/admiral-fork-…).
const TRANSIT_LINE =
  /^\s*IN TRANSIT\s*\((\w+)\)\s*\|\s*From:\s*(.+?)\s*(?:→|->)\s*To:\s*(.+?)\s*(?:\|\s*ETA:\s*(\d+)\s*ticks?)?\s*$/i;

/** The ship under way, as a transit line says it: the destination and the ticks left. */
function readTransitLine(lines: readonly string[]): Location | undefined {
  for (const line of lines) {
    const match = TRANSIT_LINE.exec(line);
    if (!match) continue;
    const jumping = (match[1] ?? '').toLowerCase() === 'jump';
    const to = transitTarget(match[3]) ?? '';
    const location: Location = {
      poi_id: null,
      poi_name: null,
      poi_type: null,
      docked: false,
      in_transit: true,
      destination: jumping ? { system_id: to, poi_id: null } : { system_id: '', poi_id: to },
    };
    const ticks = readNumber(match[4]);
    if (ticks !== undefined) location.ticks_remaining = ticks;
    return location;
  }
  return undefined;
}

/** The state block in `text`, from its header line on; empty when the text has none. */
export function readState(text: string): State {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => readHeader(line) !== undefined);
  const underWay = readTransitLine(lines);
  if (start < 0) return underWay ? { location: underWay } : readPlaceBlock(lines);
  const header = readHeader(lines[start] ?? '');
  if (!header) return {};
  const block = lines.slice(start);
  const labels = readLabels(block.slice(1));
  const out: State = {
    player: { username: header.username, empire: header.empire as EmpireId, credits: header.credits },
  };
  const ship = readShip(labels);
  if (ship) out.ship = ship;
  const location = underWay ?? readLocation(labels, header.system || undefined);
  if (location) out.location = location;
  const connections = readConnections(labels);
  if (connections) out.connections = connections;
  const tables = readTables(block.join('\n'));
  const resources = readDeposits(tables);
  if (resources) out.resources = resources;
  const cargo = readCargo(tables);
  // "Cargo: 0/70" with no table means an empty hold: that is said, not guessed.
  if (cargo) out.cargo = cargo;
  else if (ship?.cargo_used === 0) out.cargo = [];
  return out;
}

/**
 * get_location's shorter block: the system's name alone on the first line, then `Credits:`, `Docked at:`,
 * `Security:`, `Connections:` (no header, no ship).
 */
function readPlaceBlock(lines: readonly string[]): State {
  const first = lines.find((line) => line.trim() !== '')?.trim() ?? '';
  const labels = readLabels(lines.slice(1));
  const credits = readNumber(labels.get('credits'));
  if (first === '' || first.includes(':') || first.includes('\t') || credits === undefined) return {};
  if (!labels.has('security') && !labels.has('connections')) return {};
  const out: State = { player: { credits } };
  const location = readLocation(labels, first);
  if (location) out.location = location;
  const connections = readConnections(labels);
  if (connections) out.connections = connections;
  return out;
}
