// A small terminal line plot in braille dots (2×4 per character), with a y axis (min/max labels) and an x axis
// (first/last labels). Our own, to keep dependencies out: reports need one line series at a time, nothing more.

export interface PlotPoint {
  x: number;
  y: number;
}

export interface PlotOptions {
  /** Total width in columns, labels included; every line fits it. */
  width: number;
  /** Plot rows (each 4 dots high). */
  height: number;
  /** Formats the y labels (default: compact numbers). */
  formatY?: (value: number) => string;
  /** Labels under the x axis, at the left and right ends. */
  xLabels?: [string, string];
}

const BRAILLE_BASE = 0x2800;
// Bit of each dot in a braille cell, indexed [row][column].
const DOT_BITS: readonly (readonly [number, number])[] = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
];

/** 1234 -> "1234", 12345 -> "12.3k", 2500000 -> "2.5M". */
export function compactNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${(value / 1e6).toFixed(abs >= 1e7 ? 0 : 1)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(abs >= 1e5 ? 0 : 1)}k`;
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(abs >= 10 ? 0 : 2);
}

/** Points 0..n-1 from a plain series. */
export function indexed(values: readonly number[]): PlotPoint[] {
  return values.map((y, x) => ({ x, y }));
}

function line(grid: Uint8Array, dotsX: number, from: [number, number], to: [number, number]): void {
  // Bresenham on the dot grid: consecutive points are joined so steep changes stay visible.
  let [x0, y0] = from;
  const [x1, y1] = to;
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let error = dx + dy;
  for (;;) {
    grid[y0 * dotsX + x0] = 1;
    if (x0 === x1 && y0 === y1) return;
    const twice = 2 * error;
    if (twice >= dy) {
      error += dy;
      x0 += sx;
    }
    if (twice <= dx) {
      error += dx;
      y0 += sy;
    }
  }
}

/** The plot as lines of text; [] when there is nothing to draw or no room. */
export function plotLine(points: readonly PlotPoint[], options: PlotOptions): string[] {
  const finite = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const height = Math.max(1, Math.floor(options.height));
  if (finite.length === 0) return [];
  const format = options.formatY ?? compactNumber;
  let minY = Math.min(...finite.map((p) => p.y));
  let maxY = Math.max(...finite.map((p) => p.y));
  if (minY === maxY) {
    // A flat series sits in the middle instead of on the floor.
    minY -= 1;
    maxY += 1;
  }
  const top = format(maxY);
  const bottom = format(minY);
  const labelWidth = Math.max(top.length, bottom.length);
  const columns = Math.floor(options.width) - labelWidth - 2;
  if (columns < 2) return [];
  const dotsX = columns * 2;
  const dotsY = height * 4;
  const minX = Math.min(...finite.map((p) => p.x));
  const maxX = Math.max(...finite.map((p) => p.x));
  const toDot = (p: PlotPoint): [number, number] => [
    maxX === minX ? 0 : Math.round(((p.x - minX) / (maxX - minX)) * (dotsX - 1)),
    dotsY - 1 - Math.round(((p.y - minY) / (maxY - minY)) * (dotsY - 1)),
  ];
  const grid = new Uint8Array(dotsX * dotsY);
  const sorted = [...finite].sort((a, b) => a.x - b.x);
  let previous = toDot(sorted[0] as PlotPoint);
  grid[previous[1] * dotsX + previous[0]] = 1;
  for (const point of sorted.slice(1)) {
    const next = toDot(point);
    line(grid, dotsX, previous, next);
    previous = next;
  }
  const rows: string[] = [];
  for (let row = 0; row < height; row += 1) {
    let text = '';
    for (let column = 0; column < columns; column += 1) {
      const bits = cellBits(grid, dotsX, row, column);
      text += bits === 0 ? ' ' : String.fromCharCode(BRAILLE_BASE + bits);
    }
    const label = row === 0 ? top : row === height - 1 ? bottom : '';
    rows.push(`${label.padStart(labelWidth)} ${label ? '┤' : '│'}${text}`.trimEnd());
  }
  rows.push(`${' '.repeat(labelWidth)} └${'─'.repeat(columns)}`);
  if (options.xLabels) {
    const [left, right] = options.xLabels;
    const room = columns + 1;
    const gap = room - left.length - right.length;
    const under = gap >= 1 ? `${left}${' '.repeat(gap)}${right}` : left.slice(0, room);
    rows.push(`${' '.repeat(labelWidth + 1)}${under}`);
  }
  return rows.map((text) => [...text].slice(0, Math.floor(options.width)).join(''));
}

/** The braille dots set in one character cell (2 dots wide, 4 high) of the grid. */
function cellBits(grid: ArrayLike<unknown>, dotsX: number, row: number, column: number): number {
  let bits = 0;
  for (let dy = 0; dy < 4; dy += 1) {
    for (let dx = 0; dx < 2; dx += 1) {
      if (grid[(row * 4 + dy) * dotsX + column * 2 + dx])
        bits |= (DOT_BITS[dy] as readonly [number, number])[dx] as number;
    }
  }
  return bits;
}
