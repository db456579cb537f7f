// The state block SpaceMolt prints for get_status and after every successful action, login and register:
// `Name [empire] | 1,234cr | System`, then `Label: value` pairs joined by ` | ` and an optional cargo table.
// Read by label; a field the text does not say stays absent.
import type { EmpireId, GameObservation, MmCargoItem, MmShip, PoiType } from '../../shared/index.js';
import { cell, findTable, readLabels, readNamed, readNumber, readRatio, readTables, slug, type TextTable } from './fields.js';

type State = Pick<GameObservation, 'player' | 'ship' | 'location' | 'cargo'>;
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

/** Cargo rows from a table with item and quantity columns; ids from an id column, else from the item's name. */
export function readCargo(tables: readonly TextTable[]): MmCargoItem[] | undefined {
  const table = findTable(tables, ['qty']) ?? findTable(tables, ['quantity']);
  if (!table) return undefined;
  const out: MmCargoItem[] = [];
  for (const row of table.rows) {
    const id = cell(row, 'item_id', 'id') ?? slug(cell(row, 'item', 'name') ?? '');
    const quantity = readNumber(cell(row, 'qty', 'quantity'));
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
  return { name, hull: hull[0], max_hull: hull[1], fuel: fuel[0], max_fuel: fuel[1], cargo_used: cargo[0], cargo_capacity: cargo[1], speed };
}

// "jump to nexus_prime (Nexus Prime), 4 tick(s) remaining" / "travel to sol_belt (Sol Belt), 2 tick(s) remaining"
const TRANSIT = /^(jump|travel)\w*\s+to\s+([A-Za-z0-9_.:-]+)(?:\s*\([^)]*\))?(?:.*?(\d+)\s*tick)?/i;

function readLocation(labels: Map<string, string>, systemName: string | undefined): Location | undefined {
  const transit = labels.get('in transit');
  if (transit !== undefined) {
    const match = TRANSIT.exec(transit);
    const jumping = match?.[1]?.toLowerCase().startsWith('jump') === true;
    const target = match?.[2];
    // In transit the text names neither the current system's id nor its police: those stay absent.
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
  const where = labels.get('location');
  if (where === undefined) return undefined;
  // "Sol Station (sol_station) in Sol (sol)"
  const match = /^(.*\))\s+in\s+(.*\))\s*$/.exec(where);
  const poi = readNamed(match?.[1]);
  const system = readNamed(match?.[2] ?? where);
  if (!system) return undefined;
  const docked = labels.has('docked at');
  return {
    system_id: system.id,
    system_name: system.name,
    poi_id: poi?.id ?? null,
    poi_name: poi?.name ?? null,
    // Only a station can be docked at; elsewhere the status text does not say the POI's type.
    poi_type: docked ? ('station' satisfies PoiType) : null,
    docked,
    police_level: readNumber(labels.get('police')) ?? 0,
    in_transit: false,
  };
}

/** The state block in `text`, from its header line on; empty when the text has none. */
export function readState(text: string): State {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => readHeader(line) !== undefined);
  if (start < 0) return {};
  const header = readHeader(lines[start] ?? '');
  if (!header) return {};
  const block = lines.slice(start);
  const labels = readLabels(block.slice(1));
  const out: State = {
    player: { username: header.username, empire: header.empire as EmpireId, credits: header.credits },
  };
  const ship = readShip(labels);
  if (ship) out.ship = ship;
  const location = readLocation(labels, header.system || undefined);
  if (location) out.location = location;
  const tables = readTables(block.join('\n'));
  const cargo = readCargo(tables);
  // "Cargo: 0/70" with no table means an empty hold: that is said, not guessed.
  if (cargo) out.cargo = cargo;
  else if (ship?.cargo_used === 0) out.cargo = [];
  return out;
}
