// Reading a table by what its columns hold, whatever they are called and in whatever order. The game renames and adds
// columns between versions (v0.548 added `crew` to every table), so a column is found by its header among the names
// it is known under, and — for the few columns play cannot do without (a POI's id and kind, a station's base) — by
// its cells when no header names it: a column of POI kinds is the kind column, whatever its header says. A column
// neither way finds stays unknown: its facts are absent, never empty or zero. Pure; never throws.
import type { TextTable } from './fields.js';

/** A field of a table: the headers it is known under, and (optionally) how to know its cells without a header. */
export interface ColumnSpec {
  names: readonly string[];
  /** True for a cell this column would hold; a column where every non-empty cell passes (and one at least) is it. */
  cells?: (cell: string) => boolean;
}

/** POI kinds the game is known to use (and minimolt's): the cells of a kind column. */
export const POI_KINDS: ReadonlySet<string> = new Set([
  'station',
  'asteroid_belt',
  'ice_field',
  'gas_cloud',
  'planet',
  'moon',
  'sun',
  'star',
  'gate',
  'jump_gate',
  'wormhole',
  'nebula',
  'outpost',
  'anomaly',
  'derelict',
  'relay',
  'shipyard',
]);

// Place ids are snake_case with at least one underscore (`sol_central`, `market_prime_exchange`).
const SNAKE_ID = /^[a-z0-9]+(?:_[a-z0-9]+)+$/;

export const COLUMNS = {
  poiId: { names: ['id', 'poi_id', 'poi'], cells: (cell: string) => SNAKE_ID.test(cell) },
  poiKind: {
    names: ['type', 'kind', 'poi_type', 'poi_kind', 'category', 'class_type'],
    cells: (cell: string) => POI_KINDS.has(cell.toLowerCase()),
  },
  name: { names: ['name', 'display_name', 'poi_name', 'system_name', 'label'] },
  base: {
    names: ['base', 'has_base', 'station', 'has_station', 'dockable', 'base_name'],
    cells: (cell: string) => /^(yes|no|true|false|y|n)$/i.test(cell),
  },
  distance: { names: ['distance', 'dist', 'distance_au', 'distance_gu', 'range'] },
  linkId: { names: ['system_id', 'id', 'system', 'destination', 'target_system', 'to'] },
  police: { names: ['police', 'police_level', 'security', 'security_status'] },
  connections: { names: ['connections', 'lanes', 'links', 'neighbors', 'neighbours', 'adjacent', 'jumps'] },
  station: { names: ['station', 'has_station', 'stations', 'base', 'has_base'] },
  empire: { names: ['empire', 'owner'] },
  itemId: { names: ['item_id', 'item', 'resource_id', 'id', 'good', 'commodity'] },
  itemName: { names: ['item_name', 'name', 'display_name'] },
  bid: { names: ['best_buy', 'bid', 'buy_price', 'highest_buy', 'top_bid', 'buy'] },
  ask: { names: ['best_sell', 'ask', 'sell_price', 'lowest_sell', 'low_ask', 'sell'] },
  resource: { names: ['resource', 'resource_id', 'item_id', 'item', 'id', 'ore', 'name'] },
  richness: { names: ['richness', 'density', 'grade', 'quality'] },
  remaining: { names: ['remaining', 'left', 'units_left', 'units', 'amount', 'stock'] },
  quantity: { names: ['qty', 'quantity', 'amount', 'count', 'units'] },
} satisfies Record<string, ColumnSpec>;

/** The column a field is in: the first of its names the header has, else the one column whose cells are its kind. */
export function columnOf(
  table: TextTable,
  spec: ColumnSpec,
  taken: ReadonlySet<string> = new Set(),
): string | undefined {
  for (const name of spec.names) if (table.header.includes(name) && !taken.has(name)) return name;
  const { cells } = spec;
  if (!cells || table.rows.length === 0) return undefined;
  const matching = table.header.filter((column) => {
    if (taken.has(column)) return false;
    const values = table.rows.map((row) => (row[column] ?? '').trim()).filter((value) => value !== '');
    return values.length > 0 && values.every(cells);
  });
  if (matching.length === 1) return matching[0];
  // Several columns could be it (ids and a class that happens to look like one): an id column has no repeats.
  const distinct = matching.filter((column) => {
    const values = table.rows.map((row) => row[column] ?? '').filter((value) => value !== '');
    return new Set(values).size === values.length;
  });
  return distinct.length === 1 ? distinct[0] : undefined;
}

/** A row's cell for a column found by columnOf; undefined for no column or an empty cell. */
export function cellAt(row: Record<string, string>, column: string | undefined): string | undefined {
  if (column === undefined) return undefined;
  const value = row[column];
  return value === undefined || value === '' ? undefined : value;
}

/** The first table that has a column for every one of `specs` (by header or by cells). */
export function tableWith(tables: readonly TextTable[], ...specs: ColumnSpec[]): TextTable | undefined {
  return tables.find((table) => specs.every((spec) => columnOf(table, spec) !== undefined));
}
