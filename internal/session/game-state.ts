// Reads the game state a tool result carries (the game layer's observation, or the text dashboard line of
// SpaceMolt-like servers) for the status line, snapshots and the autoplay summary.
import { readDashboardLine } from '../game/index.js';
import type { Message } from '../shared/index.js';
import { observationOf, ticksInDetails, type GameObservation } from '../spacemolt/index.js';
import type { MemoryGameState } from '../llm/memory/index.js';
import { netWorthOf, type NetWorthPricing, type PriceBook } from './price-book.js';

/** What captain memory reads (credits, fuel, cargo, location, docked), plus what the status line and snapshots show. */
export interface GameState extends MemoryGameState {
  username?: string;
  hull?: number;
  maxHull?: number;
  tick?: number;
  /** `tick` is Skipper's estimate (the game does not say its tick), shown as such. */
  tickEstimated?: boolean;
  systemId?: string;
  poiId?: string | null;
  /** Where net worth's cargo prices came from (netWorthOf). */
  netWorthPricing?: NetWorthPricing;
}

/** State from a structured result (the game layer's observation, checked once by observationOf); undefined when it
 * carries no dashboard. `prices`: the market bids seen so far, which price the hold (netWorthOf). */
export function stateFromData(data: unknown, prices?: PriceBook): GameState | undefined {
  const { player, ship, location, cargo, tick } = observationOf(data);
  if (!player && !ship) return undefined;
  const state: GameState = {};
  const assign = <K extends keyof GameState>(key: K, value: GameState[K] | undefined): void => {
    if (value !== undefined) state[key] = value;
  };
  assign('username', player?.username);
  assign('credits', player?.credits);
  assign('fuel', ship?.fuel);
  assign('maxFuel', ship?.max_fuel);
  assign('cargoUsed', ship?.cargo_used);
  assign('cargoCapacity', ship?.cargo_capacity);
  assign('hull', ship?.hull);
  assign('maxHull', ship?.max_hull);
  assign('tick', tick);
  if (location) Object.assign(state, placeOf(location));
  if (state.credits !== undefined && cargo) {
    const worth = netWorthOf(state.credits, cargo, prices);
    state.netWorth = worth.value;
    state.netWorthPricing = worth.pricing;
  }
  return state;
}

type ObservedLocation = NonNullable<GameObservation['location']>;

/** Where the ship is, in the state's words: ids for snapshots, "System / POI" (and "in transit") for people. */
function placeOf(location: ObservedLocation): Pick<GameState, 'systemId' | 'poiId' | 'location' | 'docked'> {
  const place: Pick<GameState, 'systemId' | 'poiId' | 'location' | 'docked'> = {};
  if (location.system_id !== undefined) place.systemId = location.system_id;
  if (location.poi_id !== undefined) place.poiId = location.poi_id;
  const system = location.system_name ?? location.system_id;
  if (system) place.location = location.poi_name ? `${system} / ${location.poi_name}` : system;
  if (location.docked !== undefined) place.docked = location.docked;
  if (location.in_transit === true) place.location = `${place.location ?? ''} (in transit)`.trim();
  return place;
}

/**
 * State from a one-line text dashboard: "… | Credits: 150 | Fuel: 100/100 | Cargo: 0/70 | Hull: 100/100 | Tick 1234",
 * read by the game layer (readDashboardLine). The fallback for results with no observation in `data`: a game without
 * a face (the game layer reads SpaceMolt's own status block into `data` at the boundary).
 */
export function stateFromText(text: string): GameState | undefined {
  const observation = readDashboardLine(text);
  return observation ? stateFromData(observation) : undefined;
}

export function stateFromMessage(message: Message, prices?: PriceBook): GameState | undefined {
  if (message.role !== 'tool' || message.isError) return undefined;
  return stateFromData(message.data, prices) ?? stateFromText(message.content);
}

/** The newest game state in a list of messages, walking back from the end; `prices` is fed every market view in it
 * first, so the state is priced as it was when the messages were played. */
export function latestState(messages: readonly Message[], prices?: PriceBook): GameState | undefined {
  if (prices) for (const message of messages) prices.observe(message);
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (!message) continue;
    const state = stateFromMessage(message, prices);
    if (state) return state;
  }
  return undefined;
}

/** Ticks an action's result says it took (travel and jump: "after N tick(s)", read by the game layer); 1 otherwise. */
export function ticksTaken(data: unknown): number {
  return ticksInDetails(observationOf(data).details) ?? 1;
}
