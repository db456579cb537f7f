// The SpaceMolt game domain: the two MCP faces, the shapes of what the game answers (zod schemas and their types),
// minimolt's item ids and base prices, the formulas of motion and mining, planner mode's flight plan, the seeded
// RNG, the words for a system's security and the fleet's shared views. It stands on shared and below everything
// that plays or serves the game (game, sim, provider, store).
export type * from './minimolt.js';
export { MINIMOLT_BASE_PRICES } from './minimolt.js';
export * from './faces.js';
export * from './observation.js';
export * from './belief.js';
export * from './plan.js';
export * from './physics.js';
export * from './rng.js';
export { policeFromSecurity, securityText } from './security.js';
export type {
  SharedMarketView,
  SaleClaim,
  FleetKnowledgePort,
  SharedDanger,
  SharedPoi,
  SharedSystemView,
} from './fleet-knowledge.js';
export { SPACEMOLT_LESSONS, SPACEMOLT_PROMPT } from './guide.js';
