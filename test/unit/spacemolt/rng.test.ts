// The one seeded RNG of the game domain: minimolt's keyed generator and the built-in captains' single-seed one draw
// the same sequences as the two generators they replaced (a seeded world or captain must not change when the code
// moved), and a draw from nothing fails loudly.
import { describe, expect, it } from 'vitest';
import { createRng, createSeededRng, hashString } from '../../../internal/spacemolt/index.js';

describe('seeded rng', () => {
  it('keyed (minimolt): the draws internal/sim/rng.ts gave for the keys (42, 7, 3)', () => {
    const rng = createRng(42, 7, 3);
    expect([rng.next(), rng.int(1, 6), rng.pick(['a', 'b', 'c']), rng.chance(0.5)]).toEqual([
      0.31524662231095135,
      6,
      'c',
      true,
    ]);
  });

  it('single seed (built-in captains): the draws internal/provider/builtin/rng.ts gave for seed 42', () => {
    const rng = createSeededRng(42);
    expect([rng.next(), rng.int(1, 6), rng.pick(['a', 'b', 'c']), rng.hex(6)]).toEqual([
      0.4813160905614495,
      6,
      'c',
      '9bf8ab',
    ]);
  });

  it('same keys, same sequence; another key, another sequence', () => {
    const draws = (rng: { next(): number }): number[] => [rng.next(), rng.next(), rng.next()];
    expect(draws(createRng(1, hashString('sol')))).toEqual(draws(createRng(1, hashString('sol'))));
    expect(draws(createRng(1, hashString('sol')))).not.toEqual(draws(createRng(1, hashString('nexus'))));
    expect(draws(createSeededRng(7))).toEqual(draws(createSeededRng(7)));
  });

  it('picking from an empty list throws instead of handing back undefined', () => {
    expect(() => createSeededRng(1).pick([])).toThrow('pick from an empty list');
  });
});
