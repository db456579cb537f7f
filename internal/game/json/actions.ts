// Details of JSON action answers (mine, sell, buy, travel, jump), notifications and register. Keys first, under their
// known names; what the keys leave out is read from the answer's sentence (`message`, `result`) by the text readers,
// since a JSON answer often carries the same sentence the text face writes.
import type { DetailedOp, ItemId, MmNotification, ObservedDetails } from '../../spacemolt/index.js';
import { readBuy, readJump, readMine, readNotifications, readSell, readTravel } from '../text/details-actions.js';
import { slug } from '../text/fields.js';
import { bool, field, idOf, isObject, list, num, str, type Json } from './fields.js';

type Partialish<T> = { [K in keyof T]?: T[K] };

function sentence(json: Json): string {
  return str(field(json, 'message', 'result', 'text', 'summary')) ?? '';
}

/** Keys over the sentence's reading: what the keys say wins, the sentence fills the rest. */
function merged<T extends object>(fromText: T | undefined, fromKeys: Partialish<T>): Partialish<T> {
  const out: Partialish<T> = { ...(fromText ?? {}) };
  for (const [key, value] of Object.entries(fromKeys) as Array<[keyof T, T[keyof T] | undefined]>)
    if (value !== undefined) out[key] = value;
  return out;
}

function itemOf(json: Json, ...names: string[]): ItemId | undefined {
  const id = str(field(json, ...names)) ?? slug(str(field(json, 'item_name', 'resource_name', 'name')) ?? '');
  return (id || undefined) as ItemId | undefined;
}

function readMineJson(json: Json): ObservedDetails<'mine'> | undefined {
  const out = merged(readMine(sentence(json)), {
    resource_id: itemOf(json, 'resource_id', 'item_id', 'resource', 'item'),
    quantity: num(field(json, 'quantity', 'amount', 'mined', 'units')),
    deposit_remaining: num(field(json, 'deposit_remaining', 'remaining')),
    xp_gained: num(field(json, 'xp_gained', 'xp')),
  });
  return out.resource_id !== undefined && out.quantity !== undefined ? (out as ObservedDetails<'mine'>) : undefined;
}

function readSellJson(json: Json): ObservedDetails<'sell'> | undefined {
  const words = sentence(json);
  const out = merged(readSell(words), {
    item_id: itemOf(json, 'item_id', 'item', 'resource_id'),
    quantity_sold: num(field(json, 'quantity_sold', 'sold', 'quantity')),
    total_earned: num(field(json, 'total_earned', 'earned', 'credits_earned', 'total')),
    average_price: num(field(json, 'average_price', 'price_each', 'avg_price')),
    unsold: num(field(json, 'unsold', 'quantity_unsold')),
    no_buyers: bool(field(json, 'no_buyers')) ?? (/\bno buyers?\b/i.test(words) ? true : undefined),
  });
  return out.item_id !== undefined && out.quantity_sold !== undefined ? (out as ObservedDetails<'sell'>) : undefined;
}

function readBuyJson(json: Json): ObservedDetails<'buy'> | undefined {
  const out = merged(readBuy(sentence(json)), {
    item_id: itemOf(json, 'item_id', 'item'),
    quantity_bought: num(field(json, 'quantity_bought', 'bought', 'quantity')),
    total_cost: num(field(json, 'total_cost', 'cost', 'total')),
    average_price: num(field(json, 'average_price', 'price_each')),
  });
  return out.item_id !== undefined && out.quantity_bought !== undefined ? (out as ObservedDetails<'buy'>) : undefined;
}

function readTravelJson(json: Json): ObservedDetails<'travel'> | undefined {
  const out = merged(readTravel(sentence(json)), {
    arrived_at: idOf(field(json, 'arrived_at', 'poi_id', 'destination', 'location'), 'poi_id'),
    fuel_used: num(field(json, 'fuel_used', 'fuel_cost')),
    ticks: num(field(json, 'ticks', 'travel_ticks', 'duration_ticks')),
  });
  return out.arrived_at !== undefined ? (out as ObservedDetails<'travel'>) : undefined;
}

function readJumpJson(json: Json): ObservedDetails<'jump'> | undefined {
  const out = merged(readJump(sentence(json)), {
    arrived_system: idOf(field(json, 'arrived_system', 'system_id', 'system', 'destination'), 'system_id'),
    arrived_poi: idOf(field(json, 'arrived_poi', 'poi_id'), 'poi_id'),
    fuel_used: num(field(json, 'fuel_used', 'fuel_cost')),
    ticks: num(field(json, 'ticks', 'jump_ticks')),
  });
  return out.arrived_system !== undefined ? (out as ObservedDetails<'jump'>) : undefined;
}

/** The real `{count, notifications: [...] | null, remaining, current_tick}`; items `{id, type, msg_type, data}`. */
function readNotificationsJson(json: Json): ObservedDetails<'get_notifications'> | undefined {
  const items = list(json, 'notifications', 'events');
  if (!items) return readNotifications(sentence(json));
  const notifications: ObservedDetails<'get_notifications'>['notifications'] = [];
  items.forEach((value, index) => {
    if (!isObject(value)) return;
    const data = isObject(value.data) ? value.data : {};
    const rawId = field(value, 'id');
    const message =
      str(field(value, 'message', 'content', 'text')) ??
      str(field(data, 'message', 'content', 'text')) ??
      describeEvent(str(field(value, 'msg_type', 'event', 'kind')), data);
    const item: ObservedDetails<'get_notifications'>['notifications'][number] = {
      // The real ids are 32-hex strings: a number keeps our shape, unique within the answer.
      id: typeof rawId === 'number' ? rawId : index + 1,
      type: (str(field(value, 'type', 'category')) ?? 'system').toLowerCase() as MmNotification['type'],
      message,
    };
    const from = str(field(value, 'from', 'sender')) ?? str(field(data, 'sender', 'from', 'username'));
    if (from) item.from = from;
    const channel = str(field(value, 'channel')) ?? str(field(data, 'channel'));
    if (channel) item.channel = channel.toLowerCase() as NonNullable<MmNotification['channel']>;
    const tick = num(field(value, 'tick'));
    if (tick !== undefined) item.tick = tick;
    notifications.push(item);
  });
  return { notifications, remaining: num(field(json, 'remaining')) ?? 0 };
}

/** An event with no sentence of its own (`msg_type: "poi_arrival"`, `data: {poi_name, username}`), in words. */
function describeEvent(kind: string | undefined, data: Json): string {
  const facts = Object.entries(data)
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
    .map(([key, value]) => `${key}=${String(value)}`);
  return [kind ?? 'event', ...facts].join(' ');
}

function readRegisterJson(json: Json): ObservedDetails<'register'> {
  const id = str(field(json, 'player_id')) ?? str(field(isObject(json.player) ? json.player : undefined, 'id'));
  return id ? { player_id: id } : {};
}

const ACTION_READERS: Partial<{ readonly [Op in DetailedOp]: (json: Json) => ObservedDetails<Op> | undefined }> = {
  mine: readMineJson,
  sell: readSellJson,
  buy: readBuyJson,
  travel: readTravelJson,
  jump: readJumpJson,
  get_notifications: readNotificationsJson,
  register: readRegisterJson,
};

export function readJsonActionDetails(op: DetailedOp, json: Json): unknown {
  const reader = ACTION_READERS[op] as ((json: Json) => unknown) | undefined;
  return reader?.(json);
}
