// Seeded randomness, one generator for the game's two sides. minimolt keys every draw by (seed, tick, stream), so the
// same seed and the same actions give the same world whatever the wall clock does (SIM-SPEC "Determinism"); the
// built-in captains take one seed, so a seeded autopilot picks the same username and call ids every run.

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
  /** `length` lowercase hex characters. */
  hex(length: number): string;
}

/** A 32-bit hash of a string (FNV-1a), to turn ids into generator keys. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** mulberry32 from a 32-bit starting state, with the draws built on it. */
function mulberry32(start: number): Rng {
  let state = start >>> 0;
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
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    chance: (probability) => next() < probability,
    hex: (length) => {
      let out = '';
      while (out.length < length) out += int(0, 15).toString(16);
      return out;
    },
  };
}

/** minimolt's generator: a state mixed from every key part (seed, tick, stream…). */
export function createRng(...keys: number[]): Rng {
  let state = 0x12345678;
  for (const key of keys) state = mix(state, key >>> 0);
  return mulberry32(state);
}

/** A built-in captain's generator, from its one seed. */
export function createSeededRng(seed: number): Rng {
  return mulberry32((Math.floor(seed) ^ 0x9e3779b9) >>> 0);
}

/** A fresh seed when none is given, so two captains started without one do not pick the same username. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x7fffffff);
}
