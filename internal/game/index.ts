// internal/game: the captain's only way into a game (MCP client with reconnect, re-login, credential capture,
// secret guard, untrusted-text labelling and the tool catalog).
export {
  parseEnvAssignment,
  parseGameTarget,
  targetLabel,
  targetUrl,
  SPACEMOLT_URL,
  SPACEMOLT_V1_URL,
  type GameTarget,
} from './target.js';
export { classifyTool, kindByName, toToolSpec } from './classify.js';
export { credentialKeys } from './credential-key.js';
export { detectProfile, type GameProfile, type ProfileId } from './profile.js';
export { REGISTRATION_CODE_MISSING } from './filled-args.js';
export { readObservation } from './text/observe.js';
export { readDashboardLine } from './text/dashboard-line.js';
export {
  ACCOUNT_TOOLS,
  CORE_TOOLS,
  PLAY_TOOLS,
  readsAsOriginal,
  resultOp,
  showsState,
  stateSummary,
} from './reading.js';
export { connectGame } from './connection.js';
export { IpPacer, isRejection, type IpHealth, type IpPacerOptions } from './ip-pacer.js';
export {
  DEFAULT_QUERY_BUDGET,
  NOTIFICATIONS_ASKED_TEXT,
  QueryBudget,
  queryKey,
  type QueryBudgetLimits,
} from './query-budget.js';
export {
  RECONNECT_NOTICE,
  RECONNECT_ONLY_NOTICE,
  realClock,
  uncertainNotice,
  type ConnectGameOptions,
  type GameClock,
  type GameConnection,
  type GameExchange,
  type GameStats,
  type RetryOptions,
} from './options.js';
export {
  eventLine,
  renderEvents,
  splitUntrusted,
  wrapUntrusted,
  UNTRUSTED_RULE,
  type TextSegment,
} from './untrusted.js';
export { fromCallResult, rateLimitWaitMs } from './result.js';
export { revealsSecret, SAVED } from './secrets.js';
export { checkGame, opProblems, treatment, verdictLine, type DoctorReport } from './doctor-check.js';
export { openClient } from './transport.js';
export type { McpToolLike } from './classify.js';
export { leanGetJson, type LeanJsonAnswer } from './lean-fetch.js';
export {
  CONTACT_QUERIES,
  QUERY_LABELS,
  contactVerdict,
  marketQuestion,
  notAsked,
  readAnswer,
  readAnswers,
  type AnswerReading,
  type ContactAnswer,
  type ContactQuery,
  type ContactVerdict,
  type ReadFact,
} from './first-contact.js';
export { noticeIfSlow, SLOW_CALL_NOTICE_MS } from './slow-call.js';
