// The shape of minimolt's structuredContent: the contract between the server (internal/sim) and the code that reads
// its results (the built-in autopilot, reports, the status line). The text in content[0] says the same for models.
// Every successful result carries the dashboard (player, ship, location, cargo, tick) plus the tool's `details`.
import type { z } from 'zod';
import type {
  cargoItemSchema,
  connectionSchema,
  depositSchema,
  locationSchema,
  mapDetailsSchema,
  marketDetailsSchema,
  marketItemSchema,
  notificationSchema,
  notificationsDetailsSchema,
  playerSchema,
  poiDetailsSchema,
  poiSummarySchema,
  routeDetailsSchema,
  shipSchema,
  skillsDetailsSchema,
  systemDetailsSchema,
} from './observation.js';

export type EmpireId = 'solarian' | 'voidborn' | 'crimson' | 'nebula' | 'outerrim';

export type ItemId =
  'iron_ore' | 'copper_ore' | 'nickel_ore' | 'titanium_ore' | 'platinum_ore' | 'water_ice' | 'helium_gas';

/** Base prices in credits (SIM-SPEC); net worth counts cargo at these prices. Shared by the server, the autopilot
 * and the status line so they cannot drift apart. */
export const MINIMOLT_BASE_PRICES: Readonly<Record<ItemId, number>> = {
  iron_ore: 8,
  copper_ore: 12,
  nickel_ore: 15,
  titanium_ore: 25,
  platinum_ore: 45,
  water_ice: 10,
  helium_gas: 18,
};

export type PoiType = 'station' | 'asteroid_belt' | 'ice_field' | 'gas_cloud' | 'planet' | 'sun' | 'gate';

// The dashboard's pieces and every tool's details are defined once, as zod schemas (observation.ts), and their types
// inferred from them.
export type MmPlayer = z.infer<typeof playerSchema>;
export type MmShip = z.infer<typeof shipSchema>;
export type MmLocation = z.infer<typeof locationSchema>;
export type MmCargoItem = z.infer<typeof cargoItemSchema>;

export interface MmDashboard {
  player: MmPlayer;
  ship: MmShip;
  location: MmLocation;
  cargo: MmCargoItem[];
  tick: number;
}

/** structuredContent of a successful call (register/login/help may omit the dashboard). */
export interface MmResult<Details = unknown> extends Partial<MmDashboard> {
  details?: Details;
}

export interface MmErrorResult {
  error: { code: MmErrorCode; message: string; retry_after?: number; ticks_remaining?: number; pending?: string };
}

export type MmErrorCode =
  | 'not_authenticated'
  | 'invalid_credentials'
  | 'session_replaced'
  | 'invalid_params'
  | 'action_pending'
  | 'in_transit'
  | 'rate_limited'
  | 'invalid_poi'
  | 'wrong_system'
  | 'not_connected'
  | 'no_fuel'
  | 'docked'
  | 'not_docked'
  | 'already_docked'
  | 'no_base'
  | 'no_credits'
  | 'no_cargo_space'
  | 'insufficient_cargo'
  | 'no_resources'
  | 'username_taken';

// ---- details per tool ----

export type MmPoiSummary = z.infer<typeof poiSummarySchema>;
export type MmConnection = z.infer<typeof connectionSchema>;
export type MmSystemDetails = z.infer<typeof systemDetailsSchema>;
export type MmDeposit = z.infer<typeof depositSchema>;
export type MmPoiDetails = z.infer<typeof poiDetailsSchema>;
export type MmMapDetails = z.infer<typeof mapDetailsSchema>;
export type MmRouteDetails = z.infer<typeof routeDetailsSchema>;
export type MmMarketItem = z.infer<typeof marketItemSchema>;
export type MmMarketDetails = z.infer<typeof marketDetailsSchema>;
export type MmNotification = z.infer<typeof notificationSchema>;
export type MmNotificationsDetails = z.infer<typeof notificationsDetailsSchema>;
export type MmSkillsDetails = z.infer<typeof skillsDetailsSchema>;
