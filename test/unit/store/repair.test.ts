import { describe, expect, it } from 'vitest';
import { CANCELLED_RESULT_TEXT } from '../../../internal/shared/index.js';
import { repairDanglingToolCalls } from '../../../internal/store/index.js';
import type { Message } from '../../../internal/shared/index.js';

const at = 1;

describe('repairDanglingToolCalls (rule 9)', () => {
  it('adds a cancelled error result for each call without one, in call order', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', content: 'go', createdAt: at, turn: 4 },
      {
        id: '2',
        role: 'assistant',
        content: '',
        createdAt: at,
        turn: 4,
        round: 2,
        toolCalls: [
          { id: 'a', name: 'get_status', arguments: '{}' },
          { id: 'b', name: 'mine', arguments: '{}' },
          { id: 'c', name: 'sell', arguments: '{}' },
        ],
      },
      { id: '3', role: 'tool', content: 'ok', toolCallId: 'b', toolName: 'mine', createdAt: at, turn: 4, round: 2 },
    ];
    const snapshot = structuredClone(messages);
    expect(repairDanglingToolCalls(messages)).toEqual([
      {
        role: 'tool',
        content: CANCELLED_RESULT_TEXT,
        toolCallId: 'a',
        toolName: 'get_status',
        isError: true,
        turn: 4,
        round: 2,
      },
      {
        role: 'tool',
        content: CANCELLED_RESULT_TEXT,
        toolCallId: 'c',
        toolName: 'sell',
        isError: true,
        turn: 4,
        round: 2,
      },
    ]);
    expect(messages).toEqual(snapshot);
  });

  it('returns nothing for a complete transcript or text-only replies', () => {
    const messages: Message[] = [
      { id: '1', role: 'assistant', content: 'hi', toolCalls: [], createdAt: at },
      { id: '2', role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'n', arguments: '{}' }], createdAt: at },
      { id: '3', role: 'tool', content: 'r', toolCallId: 'x', createdAt: at },
      { id: '4', role: 'assistant', content: 'no list at all', createdAt: at },
    ];
    expect(repairDanglingToolCalls(messages)).toEqual([]);
    expect(repairDanglingToolCalls([])).toEqual([]);
  });

  it('does not count a result that came before the call', () => {
    const messages: Message[] = [
      { id: '1', role: 'tool', content: 'stray', toolCallId: 'x', createdAt: at },
      { id: '2', role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'n', arguments: '{}' }], createdAt: at },
    ];
    expect(repairDanglingToolCalls(messages).map((m) => m.toolCallId)).toEqual(['x']);
  });

  it('leaves turn and round out when the call had none', () => {
    const messages: Message[] = [
      { id: '2', role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'n', arguments: '{}' }], createdAt: at },
    ];
    expect(repairDanglingToolCalls(messages)).toStrictEqual([
      { role: 'tool', content: CANCELLED_RESULT_TEXT, toolCallId: 'x', toolName: 'n', isError: true },
    ]);
  });
});
