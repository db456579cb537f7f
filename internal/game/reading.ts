// What the loop may ask of a stored result's `data` (what the game layer read from the result's text): the op it
// answered, whether it shows the captain's state, and that state as one short line. The loop reads game data only
// through here, so it names no game's fields; the line is built from the structured reading, never from the game's
// free text (rule 15: no chat or other players' words reach the system prompt).
import { FACES, observationOf, observeAsOriginal, type GameObservation } from '../spacemolt/index.js';

/** Tools the face tables name: the ones a captain needs to play, offered first when the tool list must shrink. */
export const CORE_TOOLS: ReadonlySet<string> = new Set(
  Object.values(FACES).flatMap((face) => Object.values(face).map((spelled) => spelled?.tool ?? '')),
);

/** Face ops a captain does not need to play: chat and the game's log (the captain's memory keeps its notes), help.
 * Their tools stay callable by name, listed on demand. (The account ops are play: a captain without an account
 * registers itself.) */
const OFF_PLAY_OPS: ReadonlySet<string> = new Set(['help', 'chat', 'captains_log_list', 'captains_log_add']);

/** Tools that spell an op a captain plays with (account, status, map, travel, mining, trade): what a model is
 * offered. */
export const PLAY_TOOLS: ReadonlySet<string> = new Set(
  Object.values(FACES).flatMap((face) =>
    Object.entries(face)
      .filter(([op]) => !OFF_PLAY_OPS.has(op))
      .map(([, spelled]) => spelled?.tool ?? ''),
  ),
);

const ACCOUNT_OPS: ReadonlySet<string> = new Set(['register', 'login', 'login_token', 'logout']);

/** Tools that spell only account ops (register, log in or out): not needed while the captain is logged in, when
 * Skipper logs in again by code. */
export const ACCOUNT_TOOLS: ReadonlySet<string> = new Set(
  Object.values(FACES).flatMap((face) => {
    const entries = Object.entries(face);
    const tools = new Set(entries.filter(([op]) => ACCOUNT_OPS.has(op)).map(([, spelled]) => spelled?.tool ?? ''));
    for (const [op, spelled] of entries) if (!ACCOUNT_OPS.has(op)) tools.delete(spelled?.tool ?? '');
    return [...tools];
  }),
);

/** The op a stored result answered (a grouped tool's action), when the game layer read one. */
export function resultOp(data: unknown): string | undefined {
  return observationOf(data).op;
}

/** True when a stored result shows the captain's state (a dashboard: the player or the ship). */
export function showsState(data: unknown): boolean {
  const { player, ship } = observationOf(data);
  return player !== undefined || ship !== undefined;
}

/** A copy of a stored result's data reads as its original did (the reading is cached per object; copies are many). */
export function readsAsOriginal(copy: unknown, original: unknown): void {
  observeAsOriginal(copy, original);
}

/** The captain's state in one line (`nova, credits 512; hull 90/100, …; tick 77`); undefined without a dashboard. */
export function stateSummary(data: unknown): string | undefined {
  const { player, ship, location, cargo, tick, connections } = observationOf(data);
  if (!player && !ship) return undefined;
  const parts: string[] = [];
  if (player) parts.push(`${player.username ?? 'player'}, credits ${player.credits ?? '?'}`);
  if (ship) {
    const pair = (a: number | undefined, b: number | undefined): string => `${a ?? '?'}/${b ?? '?'}`;
    parts.push(
      `hull ${pair(ship.hull, ship.max_hull)}, fuel ${pair(ship.fuel, ship.max_fuel)}, cargo ${pair(ship.cargo_used, ship.cargo_capacity)}`,
    );
  }
  if (location) parts.push(placeSummary(location));
  if (connections?.length) parts.push(`lanes to ${connections.join(', ')}`);
  if (cargo) {
    const items = cargo.map((item) => `${item.item_id} ×${item.quantity}`);
    parts.push(items.length ? `holding ${items.join(', ')}` : 'cargo empty');
  }
  if (tick !== undefined) parts.push(`tick ${tick}`);
  return parts.join('; ');
}

/** `at Market Prime / market_prime_exchange (docked, police 100)`. */
function placeSummary(location: NonNullable<GameObservation['location']>): string {
  const where = [location.system_name ?? location.system_id, location.poi_name ?? location.poi_id]
    .filter(Boolean)
    .join(' / ');
  const flags = [
    location.docked === true ? 'docked' : undefined,
    location.in_transit === true ? `in transit, ${location.ticks_remaining ?? '?'} ticks left` : undefined,
    location.police_level !== undefined ? `police ${location.police_level}` : undefined,
  ].filter(Boolean);
  return `at ${where || 'unknown'}${flags.length ? ` (${flags.join(', ')})` : ''}`;
}
