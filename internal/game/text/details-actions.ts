// Details of SpaceMolt's action answers (mine, sell, buy, travel, jump), notifications and register, read from the
// first sentence of their text into the Mm*Details shapes. A register's details never carry the password.
import type { ItemId, MmNotification, ObservedDetails } from '../../spacemolt/index.js';
import { readNamed, readNumber, slug } from './fields.js';

/** "5 Iron Ore (iron_ore)" -> quantity and id (from the parentheses, else from the name). */
function quantityOf(text: string | undefined): { quantity: number; id: string } | undefined {
  const match = text === undefined ? null : /^\s*(\d[\d,]*)\s+(.+)$/.exec(text);
  const quantity = readNumber(match?.[1]);
  if (!match?.[2] || quantity === undefined) return undefined;
  const named = readNamed(match[2]);
  return { quantity, id: named?.id ?? slug(match[2]) };
}

export function readMine(text: string): ObservedDetails<'mine'> | undefined {
  const mined = /mined\s+(\d[\d,]*\s+[^.\n]*?)(?:\.|\n|$)/i.exec(text);
  const what = quantityOf(mined?.[1]);
  if (!what) return undefined;
  const out: ObservedDetails<'mine'> = { resource_id: what.id as ItemId, quantity: what.quantity };
  const remaining = readNumber(/deposit remaining:\s*([\d,]+)/i.exec(text)?.[1]);
  if (remaining !== undefined) out.deposit_remaining = remaining;
  const xp = readNumber(/\+(\d[\d,]*)\s*\w*\s*xp/i.exec(text)?.[1]);
  if (xp !== undefined) out.xp_gained = xp;
  return out;
}

// "Sold 12 Iron Ore (iron_ore) for 96cr (avg 8.0cr each)."
const TRADE = /\b(sold|bought)\s+(\d[\d,]*\s+.+?)\s+for\s+(\d[\d,]*)\s*cr(?:\s*\(avg\s+([\d.,]+))?/i;

/** One reading of a trade line: the verb says which side, sell and buy only name the fields differently. */
function readTrade(
  text: string,
  verb: 'sold' | 'bought',
): { item: string; quantity: number; total?: number; average?: number } | undefined {
  const match = TRADE.exec(text);
  const what = quantityOf(match?.[2]);
  if (!match || match[1]?.toLowerCase() !== verb || !what) return undefined;
  const total = readNumber(match[3]);
  const average =
    readNumber(match[4]) ?? (total !== undefined && what.quantity > 0 ? total / what.quantity : undefined);
  return {
    item: what.id,
    quantity: what.quantity,
    ...(total !== undefined ? { total } : {}),
    ...(average !== undefined ? { average } : {}),
  };
}

export function readSell(text: string): ObservedDetails<'sell'> | undefined {
  const trade = readTrade(text, 'sold');
  if (!trade) return undefined;
  const out: ObservedDetails<'sell'> = { item_id: trade.item as ItemId, quantity_sold: trade.quantity };
  if (trade.total !== undefined) out.total_earned = trade.total;
  if (trade.average !== undefined) out.average_price = trade.average;
  // "Sold 0 Palladium Ore for 0cr. 7 unsold (no buyers)." — the real server's answer when the station takes none.
  const unsold = readNumber(/(\d[\d,]*)\s+unsold\b/i.exec(text)?.[1]);
  if (unsold !== undefined) out.unsold = unsold;
  if (/\bno buyers?\b/i.test(text)) out.no_buyers = true;
  return out;
}

export function readBuy(text: string): ObservedDetails<'buy'> | undefined {
  const trade = readTrade(text, 'bought');
  if (!trade) return undefined;
  const out: ObservedDetails<'buy'> = { item_id: trade.item as ItemId, quantity_bought: trade.quantity };
  if (trade.total !== undefined) out.total_cost = trade.total;
  if (trade.average !== undefined) out.average_price = trade.average;
  return out;
}

function travelFacts(text: string): { ticks?: number; fuel_used?: number; auto_undocked: boolean } {
  const out: { ticks?: number; fuel_used?: number; auto_undocked: boolean } = {
    auto_undocked: /\bundocked first\b/i.test(text),
  };
  const ticks = readNumber(/after\s+(\d+)\s*tick/i.exec(text)?.[1]);
  if (ticks !== undefined) out.ticks = ticks;
  const fuel = readNumber(/fuel used:\s*(\d[\d,]*)/i.exec(text)?.[1]);
  if (fuel !== undefined) out.fuel_used = fuel;
  return out;
}

export function readTravel(text: string): ObservedDetails<'travel'> | undefined {
  const arrived = readNamed(/arrived at\s+([^\n]*?\))/i.exec(text)?.[1]);
  if (!arrived) return undefined;
  return { arrived_at: arrived.id, ...travelFacts(text) };
}

export function readJump(text: string): ObservedDetails<'jump'> | undefined {
  const system = readNamed(/jumped to\s+([^\n]*?\))/i.exec(text)?.[1]);
  if (!system) return undefined;
  const out: ObservedDetails<'jump'> = { arrived_system: system.id, ...travelFacts(text) };
  const poi = readNamed(/arrived at\s+([^\n]*?\))/i.exec(text)?.[1]);
  if (poi) out.arrived_poi = poi.id;
  return out;
}

// "#12 [chat/system] <Vega> anyone selling platinum?" / "#13 [combat] Pirates ambushed you…"
const NOTIFICATION = /^#(\d+)\s+\[([a-z_]+)(?:\/([a-z_]+))?\]\s*(?:<([^>]*)>\s*)?(.*)$/i;

export function readNotifications(text: string): ObservedDetails<'get_notifications'> | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  if (lines.some((line) => /^no (new )?notifications\b/i.test(line))) return { notifications: [], remaining: 0 };
  const head = lines.find((line) => /^notifications\b/i.test(line));
  const notifications: ObservedDetails<'get_notifications'>['notifications'] = [];
  let unread = 0;
  for (const line of lines) {
    const match = NOTIFICATION.exec(line);
    if (!match) {
      if (line !== '' && line !== head) unread += 1;
      continue;
    }
    const item: ObservedDetails<'get_notifications'>['notifications'][number] = {
      id: Number(match[1]),
      type: (match[2] ?? 'system').toLowerCase() as MmNotification['type'],
      message: match[5] ?? '',
    };
    if (match[3]) item.channel = match[3].toLowerCase() as NonNullable<MmNotification['channel']>;
    if (match[4] !== undefined) item.from = match[4];
    notifications.push(item);
  }
  // A line we could not read may be an event the server has already cleared: then the whole text is shown (wrapped)
  // rather than a list that would silently leave it out.
  if ((!head && notifications.length === 0) || unread > 0) return undefined;
  return { notifications, remaining: readNumber(/(\d[\d,]*)\s+more waiting/i.exec(head ?? '')?.[1]) ?? 0 };
}

/** Only a player id when the greeting states one: the password and session id stay out of data. */
export function readRegister(text: string): ObservedDetails<'register'> {
  const id = /^\s*player[ _]id:\s*(\S+)/im.exec(text)?.[1];
  return id ? { player_id: id } : {};
}
