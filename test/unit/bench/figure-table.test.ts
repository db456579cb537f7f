// The bench table's ratio and verdict (internal/bench/figure-table.ts) at the edges: zero and below.
import { describe, expect, it } from 'vitest';
import { formatTable, ratio } from '../../../internal/bench/figure-table.js';
import type { BenchFigure } from '../../../internal/bench/types.js';

const figure = (value: number, better: 'lower' | 'higher'): BenchFigure => ({
  part: 'fleet',
  name: 'growth',
  value,
  unit: 'KB',
  target: 16,
  better,
});

describe('ratio', () => {
  it('a lower-is-better figure at or below zero (a heap that shrank) meets its target', () => {
    expect(ratio(figure(-3.1, 'lower'))).toBe(Infinity);
    expect(ratio(figure(0, 'lower'))).toBe(Infinity);
    expect(formatTable([figure(-3.1, 'lower')]).join('\n')).toMatch(/-3\.100 KB\s+< 16\.0\s+Infinity×\s+ok/);
  });

  it('above its target it is missed; a higher-is-better figure at zero is missed', () => {
    expect(ratio(figure(32, 'lower'))).toBe(0.5);
    expect(formatTable([figure(32, 'lower')]).join('\n')).toMatch(/MISSED/);
    expect(ratio(figure(0, 'higher'))).toBe(0);
  });
});
