// What SpaceMolt tells its captain in words: the game's paragraph of the system prompt and the lesson wordings for
// the error codes SpaceMolt (and minimolt, which speaks its faces) sends. The game profile (internal/game/profile.ts)
// hands them to the loop as a GameGuide, with the status call of the face the server speaks; the loop names no game.
import type { LessonWording } from '../shared/index.js';
import { JUMP_FUEL_BASE, JUMP_FUEL_CARGO_DIVISOR, TRAVEL_FUEL_PER_AU } from './physics.js';

/** The system prompt's paragraph for any server that speaks SpaceMolt's tools (the real game, minimolt). */
export const SPACEMOLT_PROMPT =
  'Game: SpaceMolt, a persistent space MMO (or minimolt, an offline server that speaks its tools). Mine ore at ' +
  'asteroid belts, carry it to a station, dock and sell it; refuel and repair when docked. One mutation per tick ' +
  '(about 10 s); queries (get_status, get_system, get_poi, view_market, find_route…) are free. Travel and jumps ' +
  'block until arrival. Errors such as action_pending, in_transit or rate_limited mean wait, not retry at once.';

/** "Avoid …/Prefer …" advice per error code SpaceMolt sends, for the tool that failed. */
export const SPACEMOLT_LESSONS: Readonly<Record<string, LessonWording>> = {
  no_fuel: (tool) =>
    tool === 'jump'
      ? `Avoid jumping on a low tank: refuel before jumping — check fuel ≥ ${JUMP_FUEL_BASE} + cargo/${JUMP_FUEL_CARGO_DIVISOR} (get_status) first; refuel only works docked`
      : tool === 'travel'
        ? `Avoid travelling on a low tank: refuel before travelling — a trip costs ceil(${TRAVEL_FUEL_PER_AU} × distance AU) fuel; refuel while docked`
        : `Avoid ${tool} on a low tank: refuel while docked before ${tool}`,
  no_cargo_space: (tool) =>
    `Avoid ${tool} with a full hold: sell cargo first — check free space (get_cargo) before ${tool}`,
  not_docked: (tool) => `Prefer docking first: ${tool} only works docked at a station (dock at a POI with a base)`,
  docked: (tool) => `Avoid ${tool} while docked: undock first (travel and jump undock on their own)`,
  already_docked: () => 'Avoid docking twice: check get_status — you are already docked',
  in_transit: (tool) =>
    `Avoid ${tool} while in transit: wait for arrival (the error says how long) and use queries meanwhile`,
  already_traveling: (tool) => `Avoid ${tool} while travelling: wait for arrival before the next move`,
  action_pending: (tool) =>
    `Avoid stacking mutations: one action per tick — wait for the pending action to resolve before ${tool}`,
  rate_limited: (tool) => `Avoid bursts of ${tool}: on rate_limited wait retry_after seconds; fewer calls per minute`,
  no_credits: (tool) => `Avoid ${tool} beyond your means: check credits and the price (view_market) first`,
  insufficient_cargo: (tool) => `Prefer checking get_cargo before ${tool}: trade only items and quantities you hold`,
  no_resources: (tool) =>
    `Avoid ${tool} at a depleted or empty spot: check deposits (get_poi) and move to another belt`,
  deposit_too_sparse: (tool) => `Avoid ${tool} at a sparse deposit: check deposits (get_poi) and move to a richer belt`,
  no_base: () => 'Avoid docking where there is no base: dock only at stations (get_system lists them)',
  not_connected: (tool) => `Prefer find_route before ${tool}: jump only along lanes from the current system`,
  wrong_system: (tool) => `Prefer get_system before ${tool}: travel targets must be POIs in the current system`,
  invalid_poi: (tool) => `Prefer get_system before ${tool}: use the exact POI ids it lists`,
  invalid_target: (tool) => `Prefer checking the target's exact id before ${tool} (get_system, get_poi)`,
  station_fuel_empty: () => 'Avoid counting on this station for fuel: refuel elsewhere and keep a reserve',
  timeout: (tool) => `Avoid long waits on ${tool}: check get_status after a timeout before calling it again`,
};
