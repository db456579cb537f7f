// The "Current game state" line of the system prompt. Built from the structured dashboard when there is one, so
// no free text from the game (chat, other players' words) is ever lifted into the system prompt (rule 15).
import type { Message } from '../shared/index.js';
import type { GameObservation } from '../spacemolt/index.js';
import { observationOf } from '../spacemolt/index.js';
import { truncateHeadTail } from './tokens.js';

const STATE_CHARS = 600;

export function stateLine(message: Message): string {
  const label = message.toolName ?? 'tool';
  const summary = dashboardSummary(observationOf(message.data));
  const body = summary ?? truncateHeadTail(withoutUntrusted(message.content), STATE_CHARS);
  return `Current game state (as this turn began, from your latest ${label} result): ${body}`;
}

function withoutUntrusted(content: string): string {
  return content.replace(/<untrusted[\s\S]*?(<\/untrusted>|$)/g, '[untrusted text omitted]');
}

function dashboardSummary(data: GameObservation): string | undefined {
  const { player, ship, location, cargo, tick, connections } = data;
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
  return truncateHeadTail(parts.join('; '), STATE_CHARS);
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
