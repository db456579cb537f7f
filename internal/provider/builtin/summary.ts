// The one-line answer that ends an autopilot turn: what the turn's actions achieved, read from their results, and
// what comes next ("Mined 24 copper_ore; sold 70 copper_ore for 912 cr at Sol Central. Next: mining at Belt A.").
import type { Message } from '../../shared/index.js';
import { detailsOf } from '../../spacemolt/index.js';
import { callsById, errorCode, observe } from './observation.js';

/** Where the mining total goes in the sentence (mines are added up, then shown where the first one happened). */
const MINED = '\u0000mined';

/** A name worth printing: an empty one says nothing. */
function named(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}

/** One line: the results of the turn's tool messages, an optional reason the turn ends, the intent. */
export function summarizeTurn(options: { turn: readonly Message[]; reason?: string; intent?: string }): string {
  const mined = new Map<string, number>();
  const parts: string[] = [];
  const failures = new Map<string, number>();
  const calls = callsById(options.turn);
  for (const message of options.turn) {
    if (message.role !== 'tool') continue;
    if (message.isError) {
      const code = errorCode(message) ?? 'error';
      failures.set(code, (failures.get(code) ?? 0) + 1);
      continue;
    }
    // Read by the op the result answered: on v2 one tool name covers many commands.
    const { op, data } = observe(message, calls);
    const { location, ship } = data;
    switch (op) {
      case 'mine': {
        const details = detailsOf(op, data.details);
        const item = named(details?.resource_id) ?? 'ore';
        if (mined.size === 0) parts.push(MINED);
        mined.set(item, (mined.get(item) ?? 0) + (details?.quantity ?? 0));
        break;
      }
      case 'sell': {
        const details = detailsOf(op, data.details);
        parts.push(
          `sold ${details?.quantity_sold ?? 0} ${named(details?.item_id) ?? 'items'} for ${Math.round(details?.total_earned ?? 0)} cr` +
            (location?.poi_name ? ` at ${location.poi_name}` : ''),
        );
        break;
      }
      case 'travel':
        parts.push(
          `travelled to ${location?.poi_name ?? named(detailsOf(op, data.details)?.arrived_at) ?? 'a new spot'}`,
        );
        break;
      case 'jump':
        parts.push(
          `jumped to ${location?.system_name ?? named(detailsOf(op, data.details)?.arrived_system) ?? 'the next system'}`,
        );
        break;
      case 'dock':
        parts.push(`docked at ${location?.poi_name ?? 'the station'}`);
        break;
      case 'undock':
        parts.push('undocked');
        break;
      case 'refuel':
        parts.push(ship ? `refuelled to ${ship.fuel}/${ship.max_fuel}` : 'refuelled');
        break;
      case 'repair':
        parts.push(ship ? `repaired hull to ${ship.hull}/${ship.max_hull}` : 'repaired');
        break;
      case 'buy': {
        const details = detailsOf(op, data.details);
        parts.push(`bought ${details?.quantity_bought ?? 0} ${named(details?.item_id) ?? 'items'}`);
        break;
      }
      case 'register': {
        const username = named(data.player?.username);
        parts.push(`registered${username ? ` as ${username}` : ''}`);
        break;
      }
      default:
        break;
    }
  }
  const minedText = [...mined].map(([item, quantity]) => `${quantity} ${item}`).join(' and ');
  const at = parts.indexOf(MINED);
  if (at >= 0) parts[at] = `mined ${minedText}`;
  // Being logged out before registering is how every new captain starts, not a failure worth reporting.
  if (parts.some((p) => p.startsWith('registered'))) failures.delete('not_authenticated');
  if (failures.size > 0) {
    parts.push(`${[...failures].map(([code, n]) => (n > 1 ? `${n}× ${code}` : code)).join(', ')} along the way`);
  }
  let line = parts.length > 0 ? `${capitalize(parts.join('; '))}.` : '';
  if (options.reason) line += `${line ? ' ' : ''}${options.reason}`;
  if (options.intent) line += `${line ? ' ' : ''}Next: ${options.intent}.`;
  if (!line) line = 'Nothing to do this turn.';
  return line.replace(/\s+/g, ' ').trim();
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
