// Small pieces of SpaceMolt's text style (test/fixtures/spacemolt/text-samples.ts): thousands commas, credits as
// `1,234cr`, item display names, tab-separated tables under a header row. Readers match labels and headers, so every
// answer builds its tables here and they cannot drift apart.
import type { ItemId } from '../../spacemolt/index.js';

/** Whole numbers with thousands commas (1,234); fractions keep their digits (2.35). */
export function formatNumber(value: number): string {
  if (!Number.isInteger(value)) return String(value);
  return value.toLocaleString('en-US');
}

export function credits(value: number): string {
  return `${formatNumber(value)}cr`;
}

/** iron_ore -> Iron Ore. */
export function itemName(item: ItemId | string): string {
  return item
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** `Name (id)`, the way every answer names a place or an item. */
export function named(name: string, id: string): string {
  return `${name} (${id})`;
}

export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** A header row and tab-separated rows. Cells must not hold tabs or newlines: they would shift every column after. */
export function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string[] {
  const cell = (value: string | number): string =>
    typeof value === 'number' ? formatNumber(value) : value.replace(/[\t\r\n]+/g, ' ');
  return [header.join('\t'), ...rows.map((row) => row.map(cell).join('\t'))];
}

/** `(1 item)`, `(3 items)`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`;
}
