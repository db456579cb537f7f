// internal/session: the session engine under every UI and the bench — the session runner (single flight, turns in
// order), session setup (history, store, memory), the autoplay ticker and its stop rules, the tick clocks, captain
// memory for a session and the game state read from the transcript. `cli` and `bench` both use it; it uses `llm`,
// `store` and `shared`, never a UI.
export { SessionRunner, type RunnerStore, type TurnInput, type RunnerOptions } from './runner.js';
export type { TurnSummary, RunnerEvent, RunnerListener } from './events.js';
export {
  HISTORY_WINDOW,
  HISTORY_TURNS_LOADED,
  runnerStoreFor,
  setUpSession,
  type SessionSetup,
} from './session-setup.js';
export {
  maxTurns,
  maxTicks,
  maxDuration,
  budgetTokens,
  budgetUsd,
  stopRules,
  autoplayPrompt,
  runAutoplay,
  actionClassifier,
  type AutoplayLimits,
  type TickStats,
  type AutoplaySummary,
  type AutoplayOptions,
} from './autoplay.js';
export { serverClock, estimatedClock, httpClock, SPACEMOLT_TICK_MS, type TickClock } from './tick-clock.js';
export { wireCaptainMemory, HANDOFF_REQUEST, type CaptainMemoryWiring } from './memory-session.js';
export {
  stateFromData,
  stateFromText,
  stateFromMessage,
  latestState,
  ticksTaken,
  type GameState,
} from './game-state.js';
