// internal/session: the session engine under every UI and the bench — the session runner (single flight, turns in
// order), session setup (history, store, memory), the autoplay ticker and its stop rules, the tick clocks, captain
// memory for a session and the game state read from the transcript. `cli` and `bench` both use it; it uses `llm`,
// `store` and `shared`, never a UI.
export { SessionRunner, type RunnerStore, type TurnInput, type RunnerOptions } from './runner.js';
export type { TurnSummary, RunnerEvent, RunnerListener, SessionEvent } from './events.js';
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
  stopReasonJson,
  stopReasonText,
  type StopReason,
  type AutoplayLimits,
  type AutoplayProgress,
  type AutoplayStopRule,
} from './autoplay-stops.js';
export { autoplayPrompt, isSkipperPrompt } from './autoplay-prompt.js';
export {
  runAutoplayTurns,
  type TickStats,
  type AutoplaySummary,
  type AutoplayOptions,
  type PlannerFigures,
} from './autoplay.js';
export { serverClock, estimatedClock, httpClock, idleWaitMs, SPACEMOLT_TICK_MS, type TickClock } from './tick-clock.js';
export { actionClassifier, storedCallKinds, type IsAction, type StoredCall } from './action-kinds.js';
export {
  tickUtilisation,
  type TickUtilisation,
  type TickUtilisationInput,
  type UtilisationSource,
} from './tick-utilisation.js';
export { wireCaptainMemory, HANDOFF_REQUEST, type CaptainMemoryWiring } from './memory-session.js';
export {
  stateFromData,
  stateFromText,
  stateFromMessage,
  latestState,
  ticksTaken,
  type GameState,
} from './game-state.js';
export { PriceBook, netWorthOf, type NetWorthPricing } from './price-book.js';
export {
  scanTranscript,
  TranscriptReader,
  type FigurePoint,
  type FiguresStore,
  type TranscriptScan,
} from './transcript-scan.js';
export {
  Planner,
  wakePrompt,
  wakeText,
  judgementEvent,
  isAttackEvent,
  doneBecause,
  SET_PLAN_TOOL,
  DEFAULT_CHECK_IN_TICKS,
  type PlannerOptions,
  type WakeReason,
  type PlannedTurn,
} from './planner.js';
export { createSessionPlanner, storedPlan, type SessionPlannerOptions } from './planner-setup.js';
export { draftSessionRecord, storedSessionRecord, type SessionRecord } from './session-record.js';
export { requestContexts } from './request-context.js';
export { recordRequests, type RequestLogPort, type RecordRequestsOptions } from './request-log.js';
export {
  runCounterfactual,
  decisionPoints,
  type CounterfactualOptions,
  type CounterfactualResult,
} from './counterfactual.js';
export { checkCalls, describeCall, judge, withSystemPrompt, type CheckedCall } from './counterfactual-compare.js';
export {
  figuresBetween,
  figuresJson,
  sessionFigures,
  storedFigures,
  storedFiguresJson,
  storedServerTicks,
  withServerTicks,
  type ServerTicks,
  type StoredFigures,
  type StoredFiguresJson,
  usageJson,
  type FigureState,
  type FiguresJson,
  type SessionFigures,
  type UsageJson,
} from './session-figures.js';
export {
  holdSessionLease,
  leaseRefusal,
  draftLeaseKey,
  type HoldLeaseOptions,
  type SessionLease,
} from './session-lease.js';
export { leaseGuardedGame, LEASE_LOST_TEXT, type LeaseCheck } from './lease-guard.js';
export { isStoreUnavailable, waitForStore, type StoreHealthSource } from './store-wait.js';
export {
  Captain,
  openCaptain,
  runAutoplay,
  checkPlayable,
  connectCaptainGame,
  type CaptainAccount,
  type CaptainAutoplay,
  type CaptainGame,
  type CaptainPacing,
  type CaptainSessionSpec,
  type OpenCaptainOptions,
} from './captain.js';
