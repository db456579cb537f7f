// The one-line text dashboard of a game without a face ("… | Credits: 150 | Fuel: 100/100 | Cargo: 0/70 |
// Hull: 100/100 | Tick 1234"), read into the same observation as SpaceMolt's dashboards. The fallback for a stored
// result with no observation in `data` (the profile reads SpaceMolt's own status block at the boundary).
import type { GameObservation } from '../../spacemolt/index.js';

function wholeNumber(text: string | undefined): number {
  return Number(text?.replace(/,/g, ''));
}

/** The line's figures as an observation (player credits, ship fuel/cargo/hull, tick); undefined without credits. */
export function readDashboardLine(text: string): GameObservation | undefined {
  const credits = /Credits:\s*([\d,]+)/i.exec(text);
  if (!credits) return undefined;
  const pair = (label: string): [number, number] | undefined => {
    const match = new RegExp(`${label}:\\s*([\\d,]+)\\s*/\\s*([\\d,]+)`, 'i').exec(text);
    return match ? [wholeNumber(match[1]), wholeNumber(match[2])] : undefined;
  };
  const ship: NonNullable<GameObservation['ship']> = {};
  const fuel = pair('Fuel');
  if (fuel) [ship.fuel, ship.max_fuel] = fuel;
  const cargo = pair('Cargo');
  if (cargo) [ship.cargo_used, ship.cargo_capacity] = cargo;
  const hull = pair('Hull');
  if (hull) [ship.hull, ship.max_hull] = hull;
  const tick = /Tick:?\s*(\d+)/i.exec(text);
  return {
    player: { credits: wholeNumber(credits[1]) },
    ...(Object.keys(ship).length > 0 ? { ship } : {}),
    ...(tick ? { tick: Number(tick[1]) } : {}),
  };
}
