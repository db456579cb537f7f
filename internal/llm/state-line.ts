// The "Current game state" line of the system prompt. Built from the structured dashboard when there is one, so
// no free text from the game (chat, other players' words) is ever lifted into the system prompt (rule 15).
import type { Message } from '../shared/index.js';
import { truncateHeadTail } from './tokens.js';

const STATE_CHARS = 600;

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

export function stateLine(message: Message): string {
  const label = message.toolName ?? 'tool';
  const summary = isRecord(message.data) ? dashboardSummary(message.data) : undefined;
  const body = summary ?? truncateHeadTail(withoutUntrusted(message.content), STATE_CHARS);
  return `Current game state (as this turn began, from your latest ${label} result): ${body}`;
}

function withoutUntrusted(content: string): string {
  return content.replace(/<untrusted[\s\S]*?(<\/untrusted>|$)/g, '[untrusted text omitted]');
}

function dashboardSummary(data: Json): string | undefined {
  const parts: string[] = [];
  const player = isRecord(data.player) ? data.player : undefined;
  const ship = isRecord(data.ship) ? data.ship : undefined;
  if (!player && !ship) return undefined;
  if (player) parts.push(`${text(player.username) ?? 'player'}, credits ${text(player.credits) ?? '?'}`);
  if (ship) {
    const pair = (a: unknown, b: unknown): string => `${text(a) ?? '?'}/${text(b) ?? '?'}`;
    parts.push(`hull ${pair(ship.hull, ship.max_hull)}, fuel ${pair(ship.fuel, ship.max_fuel)}, cargo ${pair(ship.cargo_used, ship.cargo_capacity)}`);
  }
  const location = isRecord(data.location) ? data.location : undefined;
  if (location) {
    const where = [text(location.system_name) ?? text(location.system_id), text(location.poi_name) ?? text(location.poi_id)].filter(Boolean).join(' / ');
    const flags = [location.docked === true ? 'docked' : undefined, location.in_transit === true ? `in transit, ${text(location.ticks_remaining) ?? '?'} ticks left` : undefined].filter(Boolean);
    parts.push(`at ${where || 'unknown'}${flags.length ? ` (${flags.join(', ')})` : ''}`);
  }
  if (Array.isArray(data.cargo)) {
    const items = data.cargo.filter(isRecord).map((item) => `${text(item.item_id) ?? '?'} ×${text(item.quantity) ?? '?'}`);
    parts.push(items.length ? `holding ${items.join(', ')}` : 'cargo empty');
  }
  if (data.tick !== undefined) parts.push(`tick ${text(data.tick) ?? '?'}`);
  return truncateHeadTail(parts.join('; '), STATE_CHARS);
}
