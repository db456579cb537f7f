// internal/llm: the agent loop — turns of rounds, context building, tool dispatch, guards and outcomes.
export { createHistory, type History, type HistoryOptions } from './history.js';
export { runTurn, runTurnEvents, defaultContextTokens, normalizeCalls } from './turn.js';
export type { RunTurnOptions, TurnEvent, TurnInput, TurnOptions, TurnResult } from './turn-types.js';
export { drainEvents } from './event-stream.js';
export {
  buildContext,
  findLatestState,
  latestTurns,
  OlderTurns,
  originalOf,
  queryResults,
  rebuildContext,
  rebuildLatestTurns,
  transcriptPositions,
  type BuildContextOptions,
} from './context.js';
export { buildSystemPrompt, promptStatesGoal, UNTRUSTED_RULE } from './prompt.js';
export { estimateTokens, estimateMessageTokens, estimateTextTokens, truncateHeadTail } from './tokens.js';
export {
  createTokenCounter,
  encodingForModel,
  tokenCounterFor,
  ESTIMATE_COUNTER,
  type TokenCounter,
  type TokenEncoding,
} from './token-counter.js';
export { repairForSend, cancelledResult } from './transcript.js';
// The words of a cancelled call's answer are the store's too (shared); named here as the loop's tests know them.
export { CANCELLED_RESULT_TEXT as CANCELLED_TEXT } from '../shared/index.js';
export { raceAbort } from '../shared/index.js';
export {
  parseArguments,
  prepareCall,
  dispatchCalls,
  type LocalTool,
  type PreparedCall,
  type CallOutcome,
} from './dispatch.js';
export {
  maxRounds,
  budgetExceeded,
  budgetOverrun,
  usageTokens,
  loopDetected,
  tooManyFailures,
  firstStop,
  canonicalJson,
  type TurnOutcome,
  type Budget,
  type BudgetOverrun,
  type Stop,
  type StopPredicate,
  type StopRule,
  type TurnState,
} from './guards.js';
export { fitToolList, toolTokens, gameToolsTool, GAME_TOOLS_TOOL } from './tool-budget.js';
export {
  findCycle,
  callLabel,
  repeatsForLoop,
  SAME_ACTION_REPEATS,
  type CallCycle,
  type CallRecord,
} from './call-cycle.js';
