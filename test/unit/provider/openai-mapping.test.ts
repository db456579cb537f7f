import { describe, expect, it } from 'vitest';
import {
  finaliseToolCalls,
  fromChatResponse,
  readUsage,
  StreamAccumulator,
  toChatRequest,
} from '../../../internal/provider/index.js';
import type { Message, ToolSpec } from '../../../internal/shared/index.js';
import { validateChatRequest } from '../../fakes/openai-validate.js';

const message = (fields: Partial<Message> & Pick<Message, 'role'>): Message => ({
  id: 'x',
  content: '',
  createdAt: 0,
  ...fields,
});
const tools: ToolSpec[] = [
  { name: 'mine', description: 'Mine', inputSchema: { properties: { units: { type: 'number' } } }, readOnly: false },
];

describe('toChatRequest', () => {
  it('maps roles, tool calls and tool results; never sends id, data or reasoning', () => {
    const body = toChatRequest(
      [
        message({ role: 'system', content: 'sys' }),
        message({ role: 'user', content: 'go' }),
        message({
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'mine', arguments: '{"units":2}' }],
          reasoning: 'hmm',
        }),
        message({ role: 'tool', content: 'mined 2', toolCallId: 'c1', toolName: 'mine', data: { ore: 2 } }),
        message({ role: 'assistant', content: 'Done.', toolCalls: [] }),
        message({ role: 'user', content: 'again' }),
      ],
      tools,
      'gpt-4o-mini',
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'mine', arguments: '{"units":2}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'mined 2' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'again' },
    ]);
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'mine',
          description: 'Mine',
          parameters: { type: 'object', properties: { units: { type: 'number' } } },
        },
      },
    ]);
    expect(body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } });
    expect(validateChatRequest(body)).toBeUndefined();
  });

  it('keeps assistant text next to tool calls, omits empty tools, sanitises bad history for strict servers', () => {
    const body = toChatRequest(
      [
        message({ role: 'user', content: 'go' }),
        message({
          role: 'assistant',
          content: 'Mining now.',
          toolCalls: [
            { id: 'c1', name: 'mine', arguments: '{"units":' },
            { id: 'c2', name: '', arguments: '' },
          ],
        }),
        message({ role: 'tool', content: 'bad args', toolCallId: 'c1' }),
        message({ role: 'tool', content: '', toolCallId: 'c2' }),
      ],
      [],
      'm',
    );
    expect(body).not.toHaveProperty('tools');
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: 'Mining now.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'mine', arguments: '{}' } },
        { id: 'c2', type: 'function', function: { name: 'unnamed_tool', arguments: '{}' } },
      ],
    });
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c2', content: '(no output)' });
    expect(validateChatRequest(body)).toBeUndefined();
  });
});

describe('StreamAccumulator', () => {
  it('assembles text, reasoning and interleaved tool calls by index, and usage', () => {
    const accumulator = new StreamAccumulator();
    const chunk = (delta: object, finish: string | null = null): object => ({
      model: 'm-1',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    accumulator.push(chunk({ role: 'assistant', content: '' }));
    accumulator.push(chunk({ reasoning_content: 'think ' }));
    accumulator.push(chunk({ reasoning: 'more' }));
    const deltas = accumulator.push(chunk({ content: 'Hi' }));
    expect(deltas).toEqual([{ type: 'text', text: 'Hi' }]);
    accumulator.push(
      chunk({ tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'mine', arguments: '' } }] }),
    );
    accumulator.push(chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'status', arguments: '{' } }] }));
    accumulator.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"units"' } }] }));
    accumulator.push(
      chunk({
        tool_calls: [
          { index: 0, function: { arguments: ':1}' } },
          { index: 1, function: { arguments: '}' } },
        ],
      }),
    );
    accumulator.push(chunk({}, 'tool_calls'));
    accumulator.push({
      choices: [],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });
    expect(accumulator.finish()).toEqual({
      content: 'Hi',
      reasoning: 'think more',
      toolCalls: [
        { id: 'a', name: 'mine', arguments: '{"units":1}' },
        { id: 'b', name: 'status', arguments: '{}' },
      ],
      finishReason: 'tool_calls',
      finished: true,
      model: 'm-1',
      usage: { promptTokens: 10, completionTokens: 5, cachedTokens: 4, reasoningTokens: 2 },
    });
  });

  it('copes with servers that omit index or repeat the name', () => {
    const accumulator = new StreamAccumulator();
    const push = (call: object): void => void accumulator.push({ choices: [{ delta: { tool_calls: [call] } }] });
    push({ id: 'a', function: { name: 'mine', arguments: '{"u":' } });
    push({ function: { name: 'mine', arguments: '1}' } });
    push({ id: 'b', function: { name: 'status', arguments: {} } });
    expect(accumulator.finish().toolCalls).toEqual([
      { id: 'a', name: 'mine', arguments: '{"u":1}' },
      { id: 'b', name: 'status', arguments: '{}' },
    ]);
    expect(accumulator.finish().finished).toBe(false);
  });
});

describe('fromChatResponse and finaliseToolCalls', () => {
  it('reads a plain completion', () => {
    const reply = fromChatResponse({
      model: 'x',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'why',
            tool_calls: [{ type: 'function', function: { name: 'mine', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 4 },
    });
    expect(reply).toMatchObject({
      content: '',
      reasoning: 'why',
      toolCalls: [{ name: 'mine', arguments: '{}' }],
      finishReason: 'tool_calls',
      usage: { promptTokens: 3, completionTokens: 4, cachedTokens: 0 },
    });
    expect(() => fromChatResponse({ nope: true })).toThrow();
  });

  it('generates missing or duplicate ids and drops empty nameless calls', () => {
    let n = 0;
    const calls = finaliseToolCalls(
      [
        { name: 'mine', arguments: '' },
        { id: 'dup', name: 'a', arguments: '{}' },
        { id: 'dup', name: 'b', arguments: '{}' },
        { name: '', arguments: '   ' },
        { name: '', arguments: '{"x":1}' },
      ],
      () => `call_gen${++n}`,
    );
    expect(calls).toEqual([
      { id: 'call_gen1', name: 'mine', arguments: '{}' },
      { id: 'dup', name: 'a', arguments: '{}' },
      { id: 'call_gen2', name: 'b', arguments: '{}' },
      { id: 'call_gen3', name: '', arguments: '{"x":1}' },
    ]);
  });
});

describe('readUsage: cached prompt tokens in every shape providers report them', () => {
  it('reads OpenAI (and OpenRouter), the Responses API and DeepSeek', () => {
    const base = { prompt_tokens: 100, completion_tokens: 7 };
    expect(readUsage({ ...base, prompt_tokens_details: { cached_tokens: 64 } })?.cachedTokens).toBe(64);
    expect(
      readUsage({ input_tokens: 100, output_tokens: 7, input_tokens_details: { cached_tokens: 32 } })?.cachedTokens,
    ).toBe(32);
    expect(readUsage({ ...base, prompt_cache_hit_tokens: 80, prompt_cache_miss_tokens: 20 })?.cachedTokens).toBe(80);
    expect(readUsage(base)?.cachedTokens).toBe(0);
  });
});
