// Turn facts read back from stored messages, error codes from every shape a game sends, and the retrieval context
// taken from recent history.
import { describe, expect, it } from 'vitest';
import { errorCode, memoryContext, turnFactsFromMessages } from '../../../../internal/llm/memory/index.js';
import type { Message, ToolSpec } from '../../../../internal/shared/index.js';

const spec = (name: string, readOnly: boolean): ToolSpec => ({
  name,
  description: name,
  inputSchema: { type: 'object' },
  readOnly,
});
let next = 0;
const message = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  id: `m${++next}`,
  content: '',
  createdAt: 0,
  ...fields,
});

describe('errorCode', () => {
  it('reads the code from the result, structuredContent, or the text prefix', () => {
    expect(errorCode({ text: 'x', code: 'no_fuel' })).toBe('no_fuel');
    expect(errorCode({ text: 'Not enough fuel', data: { error: { code: 'no_fuel', message: 'm' } } })).toBe('no_fuel');
    expect(errorCode({ text: 'not_docked: dock first' })).toBe('not_docked');
    expect(errorCode({ text: '[deposit_too_sparse]: try elsewhere' })).toBe('deposit_too_sparse');
    expect(errorCode({ text: 'Error: station_fuel_empty: no fuel here' })).toBe('station_fuel_empty');
    expect(errorCode({ text: 'Error: something broke' })).toBe('error');
    expect(errorCode({ text: 'Something odd happened' })).toBe('error');
  });
});

describe('turnFactsFromMessages', () => {
  it('finds successful mutations and failed calls with codes and arguments, skipping queries, memory tools and cancels', () => {
    const messages: Message[] = [
      message({ role: 'user', content: 'go' }),
      message({
        role: 'assistant',
        toolCalls: [
          { id: 'a', name: 'get_status', arguments: '{}' },
          { id: 'b', name: 'jump', arguments: '{"target_system":"crimson"}' },
        ],
      }),
      message({ role: 'tool', toolCallId: 'a', toolName: 'get_status', content: 'ok' }),
      message({ role: 'tool', toolCallId: 'b', toolName: 'jump', content: 'no_fuel: need 5', isError: true }),
      message({
        role: 'assistant',
        toolCalls: [
          { id: 'c', name: 'mine', arguments: '{}' },
          { id: 'd', name: 'remember', arguments: '{}' },
          { id: 'e', name: 'sell', arguments: '{}' },
        ],
      }),
      message({ role: 'tool', toolCallId: 'c', toolName: 'mine', content: 'mined 3' }),
      message({ role: 'tool', toolCallId: 'd', toolName: 'remember', content: 'refused', isError: true }),
      message({
        role: 'tool',
        toolCallId: 'e',
        toolName: 'sell',
        content: 'cancelled: the turn was cancelled',
        isError: true,
      }),
    ];
    expect(
      turnFactsFromMessages(messages, [
        spec('get_status', true),
        spec('jump', false),
        spec('mine', false),
        spec('sell', false),
      ]),
    ).toEqual({
      actions: ['mine'],
      errors: [{ tool: 'jump', code: 'no_fuel', args: '{"target_system":"crimson"}' }],
    });
  });
});

describe('memoryContext', () => {
  it('takes the newest history first, within a size limit', () => {
    const messages: Message[] = [
      message({ role: 'user', content: 'old line about copper '.repeat(50) }),
      message({ role: 'assistant', content: 'jumping', toolCalls: [{ id: 'x', name: 'jump', arguments: '{}' }] }),
      message({ role: 'tool', toolName: 'jump', content: 'no_fuel: need 5' }),
    ];
    const context = memoryContext({ goal: 'get rich', messages, maxChars: 200 });
    expect(context.goal).toBe('get rich');
    expect(context.recentText.startsWith('jump no_fuel: need 5 jump jumping old line')).toBe(true);
    expect(context.recentText.length).toBeLessThanOrEqual(200);
  });
});
