// The bench's table of figures: each figure next to its target and as a ratio (>= 1 means the target is met), with
// "MISSED" on the rows that fall short and "skipped" on the rows not measured on this run.
import type { BenchFigure } from './types.js';

export function ratio(figure: BenchFigure): number | undefined {
  if (figure.skipped !== undefined) return undefined;
  if (figure.target === undefined) return undefined;
  // A lower-is-better figure at or below zero (a heap that shrank) beats any target above it.
  if (figure.better === 'lower' && figure.value <= 0) return Infinity;
  if (figure.value === 0) return 0;
  return figure.better === 'lower' ? figure.target / figure.value : figure.value / figure.target;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1000) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(3);
}

export function formatTable(figures: BenchFigure[]): string[] {
  const rows = figures.map((figure) => {
    const r = ratio(figure);
    const verdict = figure.skipped !== undefined ? 'skipped' : r === undefined ? '' : r >= 1 ? 'ok' : 'MISSED';
    const target =
      figure.target === undefined ? '-' : `${figure.better === 'lower' ? '<' : '≥'} ${formatNumber(figure.target)}`;
    return [
      figure.part,
      figure.name,
      figure.skipped !== undefined ? '-' : `${formatNumber(figure.value)} ${figure.unit}`,
      target,
      r === undefined ? '-' : `${r.toFixed(2)}×`,
      verdict,
    ];
  });
  const header = ['part', 'figure', 'value', 'target', 'ratio', ''];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: string[]): string =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
}
