// Small readers for SpaceMolt's text: numbers with thousands separators, `Name (id)` pairs, `Key: value` segments
// joined by ` | `, and tab-separated tables found by their header row. They match labels and headers, never line
// or column positions, and return undefined for what they cannot read; none of them throws.

/** "1,234", "1,234cr", "8.0cr", "-20" -> a number; undefined when there is none. */
export function readNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /-?\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!match) return undefined;
  const value = Number(match[0].replace(/,/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

/** "92/100" -> [92, 100]. */
export function readRatio(text: string | undefined): [number, number] | undefined {
  const match = text === undefined ? null : /(-?\d[\d,]*(?:\.\d+)?)\s*\/\s*(\d[\d,]*(?:\.\d+)?)/.exec(text);
  if (!match) return undefined;
  const a = readNumber(match[1]);
  const b = readNumber(match[2]);
  return a === undefined || b === undefined ? undefined : [a, b];
}

/** "Sol Station (sol_station)" -> { name, id }. */
export function readNamed(text: string | undefined): { name: string; id: string } | undefined {
  const match = text === undefined ? null : /^\s*(.*?)\s*\(([A-Za-z0-9_.:-]+)\)/.exec(text);
  if (!match?.[2]) return undefined;
  return { name: match[1] ?? '', id: match[2] };
}

/** "yes"/"no" (and true/false) -> boolean. */
export function readYes(text: string | undefined): boolean | undefined {
  const value = text?.trim().toLowerCase();
  if (value === 'yes' || value === 'true' || value === 'y') return true;
  if (value === 'no' || value === 'false' || value === 'n') return false;
  return undefined;
}

/** An id cell as the game's id: kept when it is one (`iron_ore`), else the slug of the name it holds — a column
 * named `resource_id` may hold "Iron Ore". */
export function idFrom(text: string | undefined): string | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  return /^[a-z0-9_.:-]+$/.test(value) ? value : slug(value) || undefined;
}

/** A display name to the game's snake_case id: "Iron Ore" -> "iron_ore". */
export function slug(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

// A label is a few words (no digits, no sentence punctuation) before a colon: "Fuel", "Docked at", "In transit".
const LABEL = /^([A-Za-z][A-Za-z ]{0,23}):\s*(.*)$/;

/** The `Label: value` segments of the given lines (split on ` | `), by lowercased label; the first one wins. */
export function readLabels(lines: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines) {
    for (const segment of line.split(' | ')) {
      const match = LABEL.exec(segment.trim());
      if (!match?.[1]) continue;
      const label = match[1].trim().toLowerCase();
      if (!out.has(label)) out.set(label, (match[2] ?? '').trim());
    }
  }
  return out;
}

export interface TextTable {
  /** The line just above the header ("POIs (3):"), or '' at the top. */
  title: string;
  header: string[];
  rows: Array<Record<string, string>>;
}

// Header cells are short lowercase words: "item_id", "distance_au", "qty".
const HEADER_CELL = /^[a-z][a-z0-9_]*$/;

/** Every tab-separated table in the text: a header row of lowercase names and the rows under it. */
export function readTables(text: string): TextTable[] {
  const lines = text.split(/\r?\n/);
  const tables: TextTable[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const cells = (lines[index] ?? '').split('\t').map((cell) => cell.trim());
    if (cells.length < 2 || !cells.every((cell) => HEADER_CELL.test(cell))) continue;
    const rows: Array<Record<string, string>> = [];
    let next = index + 1;
    for (; next < lines.length; next += 1) {
      const line = lines[next] ?? '';
      if (!line.includes('\t')) break;
      const values = line.split('\t');
      const row: Record<string, string> = {};
      cells.forEach((name, column) => {
        row[name] = (values[column] ?? '').trim();
      });
      rows.push(row);
    }
    tables.push({ title: index > 0 ? (lines[index - 1] ?? '').trim() : '', header: cells, rows });
    index = next - 1;
  }
  return tables;
}

/** The first table whose header has every one of `columns` (and none of `without`). */
export function findTable(
  tables: readonly TextTable[],
  columns: string[],
  without: string[] = [],
): TextTable | undefined {
  return tables.find(
    (table) =>
      columns.every((name) => table.header.includes(name)) && !without.some((name) => table.header.includes(name)),
  );
}

/** The first of `names` the row has a non-empty value for. */
export function cell(row: Record<string, string>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = row[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}
