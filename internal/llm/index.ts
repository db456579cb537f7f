// internal/llm: the agent loop — turns of rounds, context building, tool dispatch, guards and outcomes.
export { createHistory, type History, type HistoryOptions } from './history.js';
export { runTurn, defaultContextTokens, normalizeCalls } from './turn.js';
export type { RunTurnOptions, TurnEvent, TurnResult } from './turn-types.js';
export { buildContext, defaultIsQuery, findLatestState, type BuildContextOptions } from './context.js';
export { buildSystemPrompt, UNTRUSTED_RULE } from './prompt.js';
export { estimateTokens, estimateMessageTokens, estimateTextTokens, truncateHeadTail } from './tokens.js';
export { repairForSend, cancelledResult, CANCELLED_TEXT } from './transcript.js';
export { raceAbort } from '../shared/index.js';
export { parseArguments, prepareCall, dispatchCalls, type LocalTool, type PreparedCall, type CallOutcome } from './dispatch.js';
export {
  maxRounds,
  budgetExceeded,
  loopDetected,
  tooManyFailures,
  firstStop,
  canonicalJson,
  type TurnOutcome,
  type Budget,
  type Stop,
  type StopRule,
  type TurnState,
} from './guards.js';
export { fitToolList, toolTokens, gameToolsTool, GAME_TOOLS_TOOL } from './tool-budget.js';
