// The shape of minimolt's structuredContent: the contract between the server (internal/sim) and the code that reads
// its results (the built-in autopilot, reports, the status line). The text in content[0] says the same for models.
// Every successful result carries the dashboard (player, ship, location, cargo, tick) plus the tool's `details`.

export type EmpireId = 'solarian' | 'voidborn' | 'crimson' | 'nebula' | 'outerrim';

export type ItemId =
  | 'iron_ore'
  | 'copper_ore'
  | 'nickel_ore'
  | 'titanium_ore'
  | 'platinum_ore'
  | 'water_ice'
  | 'helium_gas';

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

export interface MmPlayer {
  id: string;
  username: string;
  empire: EmpireId;
  credits: number;
}

export interface MmShip {
  name: string;
  hull: number;
  max_hull: number;
  fuel: number;
  max_fuel: number;
  cargo_used: number;
  cargo_capacity: number;
  speed: number;
}

export interface MmLocation {
  system_id: string;
  system_name: string;
  /** null while jumping between systems. */
  poi_id: string | null;
  poi_name: string | null;
  poi_type: PoiType | null;
  docked: boolean;
  police_level: number;
  in_transit: boolean;
  /** Set while in transit. */
  destination?: { system_id: string; poi_id: string | null };
  ticks_remaining?: number;
}

export interface MmCargoItem {
  item_id: ItemId;
  quantity: number;
}

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

/**
 * What the game layer read from one result's text (SpaceMolt faces send text only): the op the call was, the state
 * block when the text had one (no `tick`: SpaceMolt's text does not say it), and the op's details in the Mm*Details
 * shapes below. A field the text did not say is absent, never guessed.
 */
export interface GameObservation<Details = unknown> {
  op?: import('./faces.js').GameOp;
  player?: Omit<MmPlayer, 'id'> & { id?: string };
  ship?: MmShip;
  location?: MmLocation;
  cargo?: MmCargoItem[];
  tick?: number;
  details?: Details;
  error?: { code: string; message: string; retry_after?: number };
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

export interface MmRegisterDetails {
  player_id: string;
  password: string;
  message: string;
}

export interface MmPoiSummary {
  id: string;
  name: string;
  type: PoiType;
  has_base: boolean;
  /** Position in AU within the system. */
  position: { x: number; y: number };
  /** Distance in AU from the caller's current POI, when the caller is in this system. */
  distance?: number;
}

export interface MmConnection {
  system_id: string;
  name: string;
  distance: number;
  police_level: number;
}

export interface MmSystemDetails {
  system: {
    id: string;
    name: string;
    empire: EmpireId | null;
    police_level: number;
    pois: MmPoiSummary[];
    connections: MmConnection[];
  };
}

export interface MmDeposit {
  resource_id: ItemId;
  richness: number;
  remaining: number;
  max: number;
}

export interface MmPoiDetails {
  poi: MmPoiSummary & { system_id: string; resources: MmDeposit[] };
}

export interface MmMapDetails {
  systems: Array<{
    id: string;
    name: string;
    empire: EmpireId | null;
    police_level: number;
    has_station: boolean;
    connections: string[];
  }>;
}

export interface MmRouteDetails {
  /** System ids from the current system to the target, both included. */
  route: string[];
  jumps: number;
  /** Fuel for the jumps with the current cargo. */
  fuel_estimate: number;
}

export interface MmMarketItem {
  item_id: ItemId;
  base_price: number;
  /** What the station pays per unit now. */
  bid: number;
  /** What the station charges per unit now. */
  ask: number;
}

export interface MmMarketDetails {
  station: { poi_id: string; system_id: string; name: string };
  items: MmMarketItem[];
  fuel_price: number;
  repair_price: number;
}

export interface MmSellDetails {
  item_id: ItemId;
  quantity_sold: number;
  total_earned: number;
  average_price: number;
}

export interface MmBuyDetails {
  item_id: ItemId;
  quantity_bought: number;
  total_cost: number;
  average_price: number;
}

export interface MmMineDetails {
  resource_id: ItemId;
  quantity: number;
  deposit_remaining: number;
  xp_gained: number;
}

export interface MmTravelDetails {
  arrived_at: string;
  fuel_used: number;
  ticks: number;
  auto_undocked: boolean;
}

export interface MmJumpDetails {
  arrived_system: string;
  arrived_poi: string;
  fuel_used: number;
  ticks: number;
  auto_undocked: boolean;
}

export interface MmNotification {
  id: number;
  type: 'chat' | 'combat' | 'market' | 'system';
  tick: number;
  /** For chat: who spoke (another player or an NPC). */
  from?: string;
  channel?: 'system' | 'local';
  message: string;
}

export interface MmNotificationsDetails {
  notifications: MmNotification[];
  remaining: number;
}

export interface MmSkillsDetails {
  skills: Record<'mining' | 'trading' | 'navigation', { level: number; xp: number; next_level_xp: number }>;
}
