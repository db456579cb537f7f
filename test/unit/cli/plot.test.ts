// The braille line plot: exact output for a known series, flat series, unsorted points, and every line within width.
import { describe, expect, it } from 'vitest';
import { compactNumber, indexed, plotLine } from '../../../internal/cli/plot.js';

describe('plotLine', () => {
  it('draws a rising series dot by dot, with y labels and x labels', () => {
    // 4 points over 3 columns (6 dots) and 1 row (4 dots): dots (0,3) (1,2) (2,2) (3,1) (4,0) (5,0) once joined.
    expect(plotLine(indexed([0, 1, 2, 3]), { width: 6, height: 1, xLabels: ['a', 'b'] })).toEqual([
      '3 ┤⡠⠔⠉',
      '  └───',
      '  a  b',
    ]);
  });

  it('puts the max label on the top row and the min on the bottom row; a falling line goes top-left to bottom-right', () => {
    const lines = plotLine(indexed([100, 0]), { width: 12, height: 3 });
    expect(lines).toHaveLength(4);
    expect(lines[0]!.startsWith('100 ┤')).toBe(true);
    expect(lines[2]!.startsWith('  0 ┤')).toBe(true);
    expect(lines[1]!.startsWith('    │')).toBe(true);
    const plot = lines.slice(0, 3).map((line) => line.slice(5));
    // First cell of the top row has its top-left dot; last cell of the bottom row has its bottom-right dot.
    expect((plot[0]!.codePointAt(0)! - 0x2800) & 0x01).toBe(0x01);
    expect((plot[2]!.codePointAt(plot[2]!.length - 1)! - 0x2800) & 0x80).toBe(0x80);
  });

  it('centres a flat series instead of laying it on the floor', () => {
    const lines = plotLine(indexed([5, 5, 5]), { width: 10, height: 2 });
    expect(lines[0]).toMatch(/^6 ┤/);
    expect(lines[1]).toMatch(/^4 ┤/);
    // Middle of 8 dot rows (rounded): row index 3 or 4, i.e. the bottom dots of cell row 0 or top dots of row 1.
    expect(lines.slice(0, 2).join('')).toMatch(/[⣀⠉⠒⠤]/);
  });

  it('places points by x, whatever their order', () => {
    const a = plotLine(
      [
        { x: 0, y: 1 },
        { x: 10, y: 5 },
        { x: 5, y: 2 },
      ],
      { width: 20, height: 2 },
    );
    const b = plotLine(
      [
        { x: 0, y: 1 },
        { x: 5, y: 2 },
        { x: 10, y: 5 },
      ],
      { width: 20, height: 2 },
    );
    expect(a).toEqual(b);
  });

  it('keeps every line within the width, long labels included', () => {
    const values = Array.from({ length: 500 }, (_, i) => Math.sin(i / 20) * 123_456 + 1_000_000);
    for (const width of [12, 30, 80]) {
      const lines = plotLine(indexed(values), { width, height: 5, xLabels: ['tick 1234567', 'tick 99999999'] });
      expect(lines.length).toBeGreaterThan(5);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
    }
  });

  it('returns nothing without points or without room', () => {
    expect(plotLine([], { width: 40, height: 4 })).toEqual([]);
    expect(plotLine(indexed([1, 2]), { width: 4, height: 4 })).toEqual([]);
    expect(plotLine([{ x: 0, y: Number.NaN }], { width: 40, height: 4 })).toEqual([]);
  });
});

describe('compactNumber', () => {
  it('shortens large values', () => {
    expect(compactNumber(150)).toBe('150');
    expect(compactNumber(17_618)).toBe('17.6k');
    expect(compactNumber(439_051)).toBe('439k');
    expect(compactNumber(2_500_000)).toBe('2.5M');
    expect(compactNumber(-12_345)).toBe('-12.3k');
  });
});
