// Shared types, errors and the logger interface: the only imports allowed across module folders.
export * from './types.js';
export * from './errors.js';
export * from './logger.js';
export * from './json.js';
export * from './tool-error.js';
export * from './vocabulary.js';
export { argumentsOf, callKind } from './calls.js';
export { parseRetryAfter } from './retry-after.js';
export { isJsonRpcMessage, isJsonRpcRequest } from './json-rpc.js';
export { clip, escapeRegExp, flatHead } from './text.js';
export * from './limits.js';
export { EVENTS_HEADING, eventKind, eventKinds } from './turn-events.js';
export type { GameEvent, GameEvents } from './game-events.js';
export { waitForStopSignal } from './signals.js';
export { DB_OPTION_HELP, pgUrlWithoutPassword, storePlaceOf, type StorePlace } from './store-place.js';
export { creditsPer1kTokens, usdPer1kCredits, ratioText } from './economy.js';
