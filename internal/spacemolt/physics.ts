// The game's formulas (minimolt's SIM-SPEC): fuel and ticks for travel and jumps, distances between POIs, what one
// mine() yields. minimolt applies them and the autopilot plans with them: one copy, so the two cannot drift apart.

/** Where a POI sits in its system, in AU. */
export interface Position {
  x: number;
  y: number;
}

/** Fuel a trip burns per AU (rounded up, at least 1). */
export const TRAVEL_FUEL_PER_AU = 0.7;
/** A jump burns this much fuel, plus one per JUMP_FUEL_CARGO_DIVISOR units of cargo. */
export const JUMP_FUEL_BASE = 5;
export const JUMP_FUEL_CARGO_DIVISOR = 20;

export function travelFuel(distanceAu: number): number {
  return Math.max(1, Math.ceil(distanceAu * TRAVEL_FUEL_PER_AU));
}

export function travelTicks(distanceAu: number, speed: number): number {
  return Math.max(1, Math.ceil(distanceAu / speed));
}

export function jumpFuel(cargo: number): number {
  return JUMP_FUEL_BASE + Math.floor(cargo / JUMP_FUEL_CARGO_DIVISOR);
}

export function jumpTicks(speed: number): number {
  return Math.max(1, 7 - speed);
}

export function poiDistance(a: Position, b: Position): number {
  return Math.round(Math.hypot(a.x - b.x, a.y - b.y) * 100) / 100;
}

export function mineYield(options: { free: number; remaining: number; richness: number; miningLevel: number }): number {
  return Math.max(
    0,
    Math.min(options.free, options.remaining, 2 + Math.floor(options.richness / 2) + options.miningLevel),
  );
}
