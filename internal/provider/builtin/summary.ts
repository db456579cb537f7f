// The one-line answer that ends an autopilot turn: what the turn's actions achieved, read from their results, and
// what comes next ("Mined 24 copper_ore; sold 70 copper_ore for 912 cr at Sol Central. Next: mining at Belt A.").
import type { Message } from '../../shared/index.js';
import { type GameObservation, detailsOf } from '../../spacemolt/index.js';
import { type Observed, callsById, errorCode, observe } from './observation.js';

/** Where the mining total goes in the sentence (mines are added up, then shown where the first one happened). */
const MINED = '\u0000mined';

/** A name worth printing: an empty one says nothing. */
function named(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}

/** One line: the results of the turn's tool messages, an optional reason the turn ends, the intent. */
export function summarizeTurn(options: {
  turn: readonly Message[];
  reason?: string;
  intent?: string;
  /** What the game said this turn that could not be read, by op (said once, then played around). */
  unreadable?: ReadonlyMap<string, string>;
}): string {
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
    const observed = observe(message, calls);
    if (observed.op === 'mine') {
      const details = detailsOf(observed.op, observed.data.details);
      const item = named(details?.resource_id) ?? 'ore';
      if (mined.size === 0) parts.push(MINED);
      mined.set(item, (mined.get(item) ?? 0) + (details?.quantity ?? 0));
      continue;
    }
    const phrase = resultPhrase(observed);
    if (phrase) parts.push(phrase);
  }
  const at = parts.indexOf(MINED);
  if (at >= 0) parts[at] = `mined ${[...mined].map(([item, quantity]) => `${quantity} ${item}`).join(' and ')}`;
  const line = composeLine({ parts, failures, reason: options.reason, intent: options.intent });
  const unread = [...(options.unreadable ?? [])].map(([op, why]) => `${op} (${why})`);
  return unread.length > 0 ? `${line} Could not read ${unread.join(', ')}: playing on without it.` : line;
}

/** What one successful result (other than a mine, which adds up) did, as a phrase of the line. */
function resultPhrase(observed: Observed): string | undefined {
  const { op, data } = observed;
  const { location, ship } = data;
  switch (op) {
    case 'sell':
      return salePhrase(data);
    case 'travel':
    case 'jump':
      return arrivalPhrase(op, data);
    case 'dock':
      return `docked at ${location?.poi_name ?? 'the station'}`;
    case 'undock':
      return 'undocked';
    case 'refuel':
      return ship ? `refuelled to ${ship.fuel}/${ship.max_fuel}` : 'refuelled';
    case 'repair':
      return ship ? `repaired hull to ${ship.hull}/${ship.max_hull}` : 'repaired';
    case 'buy':
      return purchasePhrase(data);
    case 'register': {
      const username = named(data.player?.username);
      return `registered${username ? ` as ${username}` : ''}`;
    }
    default:
      return undefined;
  }
}

function salePhrase(data: GameObservation): string {
  const details = detailsOf('sell', data.details);
  const where = data.location?.poi_name ? ` at ${data.location.poi_name}` : '';
  return `sold ${details?.quantity_sold ?? 0} ${named(details?.item_id) ?? 'items'} for ${Math.round(details?.total_earned ?? 0)} cr${where}`;
}

function purchasePhrase(data: GameObservation): string {
  const details = detailsOf('buy', data.details);
  return `bought ${details?.quantity_bought ?? 0} ${named(details?.item_id) ?? 'items'}`;
}

/** Where a travel (a POI) or a jump (a system) arrived: the new location, else what the result text named. */
function arrivalPhrase(op: 'travel' | 'jump', data: GameObservation): string {
  const { location } = data;
  if (op === 'travel')
    return `travelled to ${location?.poi_name ?? named(detailsOf(op, data.details)?.arrived_at) ?? 'a new spot'}`;
  return `jumped to ${location?.system_name ?? named(detailsOf(op, data.details)?.arrived_system) ?? 'the next system'}`;
}

/** The phrases joined into a sentence, the failures counted after them, then the reason and what comes next. */
function composeLine(options: {
  parts: string[];
  failures: Map<string, number>;
  reason: string | undefined;
  intent: string | undefined;
}): string {
  const { parts, failures } = options;
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
