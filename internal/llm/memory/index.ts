// internal/llm/memory: the captain's memory across sessions — notes (remember/recall/forget tools), episodes and
// lessons written by code, handoffs — and the ranked, budgeted block injected into the system prompt.
export { createMemory, DEFAULT_MEMORY_BUDGET, EPISODES_KEPT, type CreateMemoryOptions } from './memory.js';
export {
  mirrorHandoff,
  clipBytes,
  CAPTAINS_LOG_TOOL,
  CAPTAINS_LOG_MAX_BYTES,
  type MirrorResult,
} from './captains-log.js';
export { factualHandoff, episodeText, type SessionSummaryFacts } from './episode.js';
export { lessonText, lessonKey, LESSON_THRESHOLD, type LessonEvidence } from './lessons.js';
export { EntryIndex, type CachedEntry } from './entry-index.js';
export { buildBlock, scoreEntry, topK, BLOCK_HEADING, type BuildBlockOptions, type BuiltBlock } from './retrieve.js';
export { containsSecret, redactSecrets } from './secrets.js';
export { tokenize } from './tokenize.js';
export { MEMORY_TOOL_NAMES, NOTE_MAX_CHARS } from './tools.js';
export { collectTurnFacts, errorCode, turnFactsFromMessages, memoryContext, type TurnFactsCollector } from './facts.js';
export type * from './types.js';
export {
  sessionMemory,
  HANDOFF_REQUEST,
  type SessionMemory,
  type SessionMemoryOptions,
  type MemoryGameState,
} from './session.js';
export { formatMemoryBlock } from './block-lines.js';
