// Re-exports for the block tests, plus the chars/4 estimate the budget is defined by (kept independent of the code).
export { BLOCK_HEADING, createMemory } from '../../../../internal/llm/memory/index.js';
export const estimateTokensForTest = (text: string): number => Math.ceil(text.length / 4);
