// minimolt, the embedded game server: the public face of internal/sim.
export {
  createMinimolt,
  type Minimolt,
  type MinimoltOptions,
  type ListenOptions,
  type SimStats,
  type HttpHandle,
  type HttpLimits,
} from './minimolt.js';
export { KeyDesk, TOKEN_TTL_MS, type OwnedPlayer } from './api-keys.js';
export { Engine, type EngineOptions, type Outcome } from './engine.js';
export { Drift, describeDrift, driftPlan, type DriftPlan } from './drift.js';
export type { Action, ActionResult } from './actions.js';
export {
  generateWorld,
  type World,
  type StarSystem,
  type Poi,
  type Deposit,
  type MarketEntry,
  MIN_SYSTEMS,
  MAX_SYSTEMS,
} from './world.js';
export { SimError, type SimErrorCode } from './sim-error.js';
export {
  buildFace,
  PRESETS,
  parsePreset,
  v2ToolNames,
  type Face,
  type FaceOptions,
  type Preset,
  type ToolEntry,
} from './faces/face.js';
export { OP_SPECS, type SimOp } from './faces/op-specs.js';
export { statusText } from './text/status.js';
export { BASE_PRICE, ITEM_IDS, EMPIRE_IDS, CAPITALS, STARTER_SHIPS, FUEL_PRICE, REPAIR_PRICE } from './data.js';
export { depositRemaining, depositUnits, rawBid, quoteBid, quoteAsk } from './economy.js';
export type { Player } from './player.js';
export {
  SlidingWindow,
  registrationsPerMinute,
  DEFAULT_REGISTRATIONS_PER_MINUTE,
  type RateLimits,
} from './rate-limit.js';
export { MAX_BODY_BYTES } from './http.js';
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_IDLE_TIMEOUT_MS,
  BODY_BYTES_RANGE,
  IDLE_TIMEOUT_RANGE,
  MAX_SESSIONS_LIMIT,
  resolveHttpLimits,
} from './http-sessions.js';
export { isLoopback } from './http-guard.js';
export { WorldStore } from './persistence.js';
