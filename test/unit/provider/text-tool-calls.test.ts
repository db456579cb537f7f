import { describe, expect, it } from 'vitest';
import { extractTextToolCalls } from '../../../internal/provider/index.js';

const known = ['mine', 'travel', 'status'];

describe('extractTextToolCalls', () => {
  it('reads one or many <tool_call> blocks and removes them from the content', () => {
    const text =
      'I will mine then check.\n<tool_call>\n{"name": "mine", "arguments": {"units": 3}}\n</tool_call>\n<tool_call>{"name":"status","arguments":{}}</tool_call>';
    expect(extractTextToolCalls(text, known)).toEqual({
      content: 'I will mine then check.',
      toolCalls: [
        { name: 'mine', arguments: '{"units":3}' },
        { name: 'status', arguments: '{}' },
      ],
    });
  });

  it('accepts an unclosed final <tool_call> and string arguments', () => {
    expect(
      extractTextToolCalls('<tool_call>{"name": "travel", "arguments": "{\\"to\\": \\"Sol\\"}"}', known).toolCalls,
    ).toEqual([{ name: 'travel', arguments: '{"to": "Sol"}' }]);
  });

  it('reads fenced JSON blocks, objects or arrays, with alternative keys', () => {
    const fenced = 'Plan:\n```json\n{"tool": "travel", "args": {"to": "Vega"}}\n```';
    expect(extractTextToolCalls(fenced, known)).toEqual({
      content: 'Plan:',
      toolCalls: [{ name: 'travel', arguments: '{"to":"Vega"}' }],
    });
    const array = '```\n[{"name": "mine", "parameters": {}}, {"function": {"name": "status", "arguments": {}}}]\n```';
    expect(extractTextToolCalls(array, known).toolCalls.map((call) => call.name)).toEqual(['mine', 'status']);
  });

  it('reads a reply that is only a JSON call, and Llama <function=…> tags', () => {
    expect(extractTextToolCalls(' {"name": "status", "arguments": {}} ', known)).toEqual({
      content: '',
      toolCalls: [{ name: 'status', arguments: '{}' }],
    });
    expect(extractTextToolCalls('<function=travel>{"to": "Sol"}</function>', known).toolCalls).toEqual([
      { name: 'travel', arguments: '{"to": "Sol"}' },
    ]);
  });

  it('leaves ordinary text and JSON that is not a known call alone', () => {
    for (const text of [
      'Just chatting, no tools.',
      '```json\n{"name": "Alice", "arguments": {}}\n```', // not a known tool
      '```json\n{"name": "mine"}\n```', // no arguments: not call-shaped
      '{"credits": 120}',
      '<tool_call>not json at all</tool_call>',
    ]) {
      expect(extractTextToolCalls(text, known)).toEqual({ content: text, toolCalls: [] });
    }
  });

  it('without a known-tool list, accepts any call-shaped JSON', () => {
    expect(extractTextToolCalls('```json\n{"name": "anything", "arguments": {"a": 1}}\n```').toolCalls).toEqual([
      { name: 'anything', arguments: '{"a":1}' },
    ]);
  });
});
