// minimolt's formulas (SIM-SPEC): fuel and ticks for travel and jumps, distances between POIs, what one mine()
// yields. Kept apart from the actions that apply them, so the rules of motion read in one place.
import type { Poi } from './world.js';

export function travelFuel(distanceAu: number): number {
  return Math.max(1, Math.ceil(distanceAu * 0.7));
}

export function travelTicks(distanceAu: number, speed: number): number {
  return Math.max(1, Math.ceil(distanceAu / speed));
}

export function jumpFuel(cargo: number): number {
  return 5 + Math.floor(cargo / 20);
}

export function jumpTicks(speed: number): number {
  return Math.max(1, 7 - speed);
}

export function poiDistance(a: Poi, b: Poi): number {
  return Math.round(Math.hypot(a.x - b.x, a.y - b.y) * 100) / 100;
}

export function mineYield(options: { free: number; remaining: number; richness: number; miningLevel: number }): number {
  return Math.max(
    0,
    Math.min(options.free, options.remaining, 2 + Math.floor(options.richness / 2) + options.miningLevel),
  );
}
