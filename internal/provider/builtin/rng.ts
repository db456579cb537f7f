// A small seeded PRNG (mulberry32) so the built-in providers are deterministic given their seed.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T | undefined;
  /** `length` lowercase hex characters. */
  hex(length: number): string;
}

export function createRng(seed: number): Rng {
  let state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[int(0, items.length - 1)]),
    hex: (length: number): string => {
      let out = '';
      while (out.length < length) out += int(0, 15).toString(16);
      return out;
    },
  };
}

/** A fresh seed when none is given, so two captains started without one do not pick the same username. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
