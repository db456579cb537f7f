// What /memory prints: the block the next turn will carry, with its size.
import type { CaptainMemory, MemoryContext } from './types.js';

export function formatMemoryBlock(memory: CaptainMemory, context: MemoryContext = {}): string[] {
  const report = memory.preview(context);
  if (report.text === '') {
    return [
      `Nothing in memory yet for ${memory.captain}: notes (remember), lessons, past turns and handoffs appear here.`,
    ];
  }
  return [
    ...report.text.split('\n'),
    '',
    `(${report.tokens} of ${memory.budgetTokens} tokens; ${report.ids.length} entr${report.ids.length === 1 ? 'y' : 'ies'} of ${memory.entries().length})`,
  ];
}
