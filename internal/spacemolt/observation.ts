// The shapes of game data, as zod schemas with the TypeScript types inferred from them: minimolt's dashboard and
// details (the Mm* types: what minimolt serves, what SpaceMolt's text says) and the GameObservation the game layer
// reads from one result's text. One definition for the game layer that builds the data and for every reader of it.
// Data read back from a stored message (SQLite, older versions, hand-made) is checked here, once, by observationOf
// and detailsOf: a piece that does not fit is left out, never half-trusted.
import { z } from 'zod';
import { OP_KINDS, type GameOp } from './faces.js';
import { deepFreeze, isRecord, toolErrorSchema } from '../shared/index.js';
import type { EmpireId, ItemId, PoiType } from './minimolt.js';

// Ids and kinds are typed by minimolt's names, yet any string is accepted: SpaceMolt has far more items, empires,
// kinds of POI and of notification, and the code that reads them treats the ones it does not know as such.
const itemId = z.custom<ItemId>((value) => typeof value === 'string');
const empireId = z.custom<EmpireId>((value) => typeof value === 'string');
const poiType = z.custom<PoiType>((value) => typeof value === 'string');
const notificationType = z.custom<'chat' | 'combat' | 'market' | 'system'>((value) => typeof value === 'string');
const chatChannel = z.custom<'system' | 'local'>((value) => typeof value === 'string');
const gameOp = z.custom<GameOp>((value) => typeof value === 'string' && Object.hasOwn(OP_KINDS, value));

// ---- the dashboard ----

export const playerSchema = z.object({ id: z.string(), username: z.string(), empire: empireId, credits: z.number() });

export const shipSchema = z.object({
  name: z.string(),
  hull: z.number(),
  max_hull: z.number(),
  fuel: z.number(),
  max_fuel: z.number(),
  cargo_used: z.number(),
  cargo_capacity: z.number(),
  speed: z.number(),
});

export const locationSchema = z.object({
  system_id: z.string(),
  system_name: z.string(),
  /** null while jumping between systems. */
  poi_id: z.string().nullable(),
  poi_name: z.string().nullable(),
  poi_type: poiType.nullable(),
  docked: z.boolean(),
  police_level: z.number(),
  in_transit: z.boolean(),
  /** Set while in transit. */
  destination: z.object({ system_id: z.string(), poi_id: z.string().nullable() }).optional(),
  ticks_remaining: z.number().optional(),
});

export const cargoItemSchema = z.object({ item_id: itemId, quantity: z.number() });

/** The player as a status block names them: SpaceMolt's text never says the player's id. */
export const statusPlayerSchema = playerSchema.partial({ id: true });
export type StatusPlayer = z.infer<typeof statusPlayerSchema>;

// ---- details per tool, as minimolt serves them ----

export const registerDetailsSchema = z.object({ player_id: z.string(), password: z.string(), message: z.string() });

export const poiSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  type: poiType,
  has_base: z.boolean(),
  /** Position in AU within the system. */
  position: z.object({ x: z.number(), y: z.number() }),
  /** Distance in AU from the caller's current POI, when the caller is in this system. */
  distance: z.number().optional(),
});

export const connectionSchema = z.object({
  system_id: z.string(),
  name: z.string(),
  distance: z.number(),
  police_level: z.number(),
});

export const systemDetailsSchema = z.object({
  system: z.object({
    id: z.string(),
    name: z.string(),
    empire: empireId.nullable(),
    police_level: z.number(),
    pois: z.array(poiSummarySchema),
    connections: z.array(connectionSchema),
  }),
});

export const depositSchema = z.object({
  resource_id: itemId,
  richness: z.number(),
  remaining: z.number(),
  max: z.number(),
});

export const poiDetailsSchema = z.object({
  poi: poiSummarySchema.extend({ system_id: z.string(), resources: z.array(depositSchema) }),
});

export const mapDetailsSchema = z.object({
  systems: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      empire: empireId.nullable(),
      police_level: z.number(),
      has_station: z.boolean(),
      connections: z.array(z.string()),
    }),
  ),
});

export const routeDetailsSchema = z.object({
  /** System ids from the current system to the target, both included. */
  route: z.array(z.string()),
  jumps: z.number(),
  /** Fuel for the jumps with the current cargo. */
  fuel_estimate: z.number(),
});

export const marketItemSchema = z.object({
  item_id: itemId,
  base_price: z.number(),
  /** What the station pays per unit now. */
  bid: z.number(),
  /** What the station charges per unit now. */
  ask: z.number(),
});

export const marketDetailsSchema = z.object({
  station: z.object({ poi_id: z.string(), system_id: z.string(), name: z.string() }),
  items: z.array(marketItemSchema),
  fuel_price: z.number(),
  repair_price: z.number(),
});

export const sellDetailsSchema = z.object({
  item_id: itemId,
  quantity_sold: z.number(),
  total_earned: z.number(),
  average_price: z.number(),
  /** Units the station did not take: `7 unsold (no buyers)`. */
  unsold: z.number().optional(),
  /** The station has no buyers for the item (some or all units unsold). */
  no_buyers: z.boolean().optional(),
});
export const buyDetailsSchema = z.object({
  item_id: itemId,
  quantity_bought: z.number(),
  total_cost: z.number(),
  average_price: z.number(),
});
export const mineDetailsSchema = z.object({
  resource_id: itemId,
  quantity: z.number(),
  deposit_remaining: z.number(),
  xp_gained: z.number(),
});
export const travelDetailsSchema = z.object({
  arrived_at: z.string(),
  fuel_used: z.number(),
  ticks: z.number(),
  auto_undocked: z.boolean(),
});
export const jumpDetailsSchema = z.object({
  arrived_system: z.string(),
  arrived_poi: z.string(),
  fuel_used: z.number(),
  ticks: z.number(),
  auto_undocked: z.boolean(),
});

export const notificationSchema = z.object({
  id: z.number(),
  type: notificationType,
  tick: z.number(),
  /** For chat: who spoke (another player or an NPC). */
  from: z.string().optional(),
  channel: chatChannel.optional(),
  message: z.string(),
});

export const notificationsDetailsSchema = z.object({
  notifications: z.array(notificationSchema),
  remaining: z.number(),
});

const skillSchema = z.object({ level: z.number(), xp: z.number(), next_level_xp: z.number() });
export const skillsDetailsSchema = z.object({
  skills: z.record(z.enum(['mining', 'trading', 'navigation']), skillSchema),
});

// ---- what the game layer reads from text ----

/**
 * The details each op's text gives, as the game layer reads them and as readers take them back: partial text gives
 * partial details, so a field the text may leave out is optional; what a reader files them under (an id) is not.
 * Stored details (minimolt's structuredContent kept by older versions) fit too: they say more, never less.
 */
export const observedDetailsSchemas = {
  get_system: z.object({
    system: systemDetailsSchema.shape.system
      .extend({
        pois: z.array(poiSummarySchema.omit({ position: true }).partial().required({ id: true })),
        connections: z.array(connectionSchema.partial().required({ system_id: true })),
      })
      .partial(),
  }),
  get_poi: z.object({
    poi: poiDetailsSchema.shape.poi
      .omit({ position: true })
      .extend({ resources: z.array(depositSchema.partial({ max: true, richness: true })) })
      .partial(),
  }),
  get_map: z.object({ systems: z.array(mapDetailsSchema.shape.systems.element.partial().required({ id: true })) }),
  find_route: routeDetailsSchema.partial(),
  view_market: marketDetailsSchema
    .extend({
      station: marketDetailsSchema.shape.station.partial(),
      items: z.array(marketItemSchema.partial().required({ item_id: true })),
    })
    .partial(),
  // SpaceMolt has more skills than minimolt's three.
  get_skills: z.object({ skills: z.record(z.string(), skillSchema) }),
  get_notifications: z.object({
    notifications: z.array(notificationSchema.partial({ tick: true })),
    remaining: z.number(),
  }),
  mine: mineDetailsSchema.partial({ deposit_remaining: true, xp_gained: true }),
  sell: sellDetailsSchema.partial({ total_earned: true, average_price: true }),
  buy: buyDetailsSchema.partial({ total_cost: true, average_price: true }),
  travel: travelDetailsSchema.partial({ fuel_used: true, ticks: true, auto_undocked: true }),
  jump: jumpDetailsSchema.partial({ arrived_poi: true, fuel_used: true, ticks: true, auto_undocked: true }),
  // Never the password: the game layer keeps that out of data.
  register: registerDetailsSchema.pick({ player_id: true }).partial(),
} as const;

export type DetailedOp = keyof typeof observedDetailsSchemas;
export type ObservedDetails<Op extends DetailedOp> = z.infer<(typeof observedDetailsSchemas)[Op]>;

/** Whether the game layer reads details for this op. */
export function hasDetails(op: GameOp): op is DetailedOp {
  return Object.hasOwn(observedDetailsSchemas, op);
}

/**
 * What the game layer read from one result's text (SpaceMolt faces send text only): the op the call was, the state
 * block when the text had one, the op's details and the error. A field the text did not say is absent, never
 * guessed: every piece is partial (in transit the text names neither the system's id nor its police). Each piece is
 * checked on its own when read back, so one that does not fit costs only itself.
 */
export const gameObservationSchema = z.object({
  op: gameOp.optional().catch(undefined),
  player: playerSchema.partial().optional().catch(undefined),
  ship: shipSchema.partial().optional().catch(undefined),
  location: locationSchema.partial().optional().catch(undefined),
  cargo: z.array(cargoItemSchema).optional().catch(undefined),
  /** The system ids a status's `Connections:` line names (lanes out of the current system). */
  connections: z.array(z.string()).optional().catch(undefined),
  /** The deposits of the POI the ship is at, as a status at a belt lists them (`Resources (n):`). */
  resources: z
    .array(depositSchema.partial({ max: true, richness: true }))
    .optional()
    .catch(undefined),
  /** The game's tick where a text says it (view_market's `current_tick=N`); status texts do not. */
  tick: z.number().optional().catch(undefined),
  /** The op's details: read them with detailsOf, which checks them against the op's schema. */
  details: z.unknown().optional(),
  error: toolErrorSchema.optional().catch(undefined),
  /** The connection broke during the call and was mended: a mutation's outcome may differ from what the answer says. */
  reconnected: z.boolean().optional().catch(undefined),
});

export type GameObservation = z.infer<typeof gameObservationSchema>;

const EMPTY: GameObservation = Object.freeze({});
// Readers of one message (status line, autopilot, reports) each ask; the answer is worked out once per data object.
// Data are never changed after they are stored, and what is handed out is frozen (but `details`, which is the
// stored object itself until detailsOf reads it).
const checked = new WeakMap<object, GameObservation>();

/** A stored tool message's `data` as a GameObservation; pieces that do not fit are left out. Never throws. */
export function observationOf(data: unknown): GameObservation {
  if (!isRecord(data)) return EMPTY;
  const known = checked.get(data);
  if (known) return known;
  const parsed = gameObservationSchema.safeParse(data);
  const observation: GameObservation = {};
  if (parsed.success) {
    for (const [key, value] of Object.entries(parsed.data))
      if (value !== undefined) Object.assign(observation, { [key]: value });
  }
  for (const [key, value] of Object.entries(observation)) if (key !== 'details') deepFreeze(value);
  Object.freeze(observation);
  checked.set(data, observation);
  return observation;
}

/**
 * Tells the cache that `copy` is a deep copy of `original`, equal to it field for field (a context's copy of a stored
 * message's data): its observation is the original's, worked out once for both. The autopilot reads every round's
 * copies, and parsing them afresh cost a fleet ~1% of its CPU.
 */
export function observeAsOriginal(copy: unknown, original: unknown): void {
  if (isRecord(copy) && isRecord(original) && !checked.has(copy)) checked.set(copy, observationOf(original));
}

// Travel and jump details say it alike (minimolt's details and SpaceMolt's "after N tick(s)").
const ticksTakenSchema = travelDetailsSchema.pick({ ticks: true });

/** Ticks an action's details say it took (travel and jump say it); undefined when they do not. */
export function ticksInDetails(details: unknown): number | undefined {
  const parsed = ticksTakenSchema.safeParse(details);
  return parsed.success ? parsed.data.ticks : undefined;
}

/** An op's details, checked against what that op's text gives; undefined when they are missing or do not fit. */
export function detailsOf<Op extends DetailedOp>(op: Op, details: unknown): ObservedDetails<Op> | undefined {
  if (details === undefined) return undefined;
  const parsed = observedDetailsSchemas[op].safeParse(details);
  return parsed.success ? (parsed.data as ObservedDetails<Op>) : undefined;
}
