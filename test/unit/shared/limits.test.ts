// Limits on what comes in (issue 48), each where it is enforced: a goal and an order a person gives are refused whole
// with one line; a tool result is kept as head and tail with a marker (rule 4) once the game layer reads it and again
// before it is stored and sent; a model reply (text, reasoning, each call's arguments) likewise.
import { describe, expect, it } from 'vitest';
import { fromCallResult } from '../../../internal/game/index.js';
import { dispatchCalls, prepareCall, type CallOutcome } from '../../../internal/llm/dispatch.js';
import { boundReply } from '../../../internal/provider/openai-response.js';
import {
  GAME_ANSWER_MAX_CHARS,
  GOAL_MAX_CHARS,
  MODEL_REPLY_MAX_CHARS,
  ORDER_MAX_CHARS,
  TOOL_RESULT_MAX_CHARS,
  UsageError,
  checkGoalText,
  checkOrderText,
} from '../../../internal/shared/index.js';

/** A text whose head and tail can be told apart from its middle. */
function long(chars: number): string {
  return `HEAD-START ${'m'.repeat(chars)} TAIL-END`;
}

function expectHeadTail(text: string, max: number): void {
  expect(text.length).toBeLessThanOrEqual(max);
  expect(text.startsWith('HEAD-START')).toBe(true);
  expect(text.endsWith('TAIL-END')).toBe(true);
  expect(text).toMatch(/\[… [\d,]+ chars omitted …\]/);
}

describe('limits: text a person gives', () => {
  it(`refuses a goal over ${GOAL_MAX_CHARS} characters with one line saying how long it is`, () => {
    expect(() => checkGoalText('g'.repeat(GOAL_MAX_CHARS))).not.toThrow();
    const error = (() => {
      try {
        checkGoalText('g'.repeat(5_000_000), 'the --autoplay goal');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      'the --autoplay goal is 5,000,000 characters; the most is 4,000: shorten it',
    );
  });

  it(`refuses an order over ${ORDER_MAX_CHARS} characters`, () => {
    expect(() => checkOrderText('o'.repeat(ORDER_MAX_CHARS))).not.toThrow();
    expect(() => checkOrderText('o'.repeat(ORDER_MAX_CHARS + 1))).toThrow(/the order is 4,001 characters/);
  });
});

describe('limits: a tool result', () => {
  it(`is read by the game layer as head and tail when over ${GAME_ANSWER_MAX_CHARS} characters`, () => {
    const result = fromCallResult({ content: [{ type: 'text', text: long(20 * 1024 * 1024) }] });
    expectHeadTail(result.text, GAME_ANSWER_MAX_CHARS);
    expect(result.isError).toBe(false);
  });

  it(`is stored and sent as head and tail when over ${TOOL_RESULT_MAX_CHARS} characters; a short one whole`, async () => {
    const tools = new Map([
      ['big', { name: 'big', description: '', inputSchema: { type: 'object', properties: {} }, readOnly: true }],
      ['small', { name: 'small', description: '', inputSchema: { type: 'object', properties: {} }, readOnly: true }],
    ]);
    const calls = ['big', 'small'].map((name, index) =>
      prepareCall({ id: `c${index}`, name, arguments: '{}' }, { tools, local: new Map() }),
    );
    const outcomes: Array<CallOutcome | undefined> = [];
    await dispatchCalls({
      calls,
      game: {
        call: (name: string) =>
          Promise.resolve({ text: name === 'big' ? long(GAME_ANSWER_MAX_CHARS) : 'fine', isError: false }),
      },
      outcomes,
      deliver: () => Promise.resolve(),
    });
    expectHeadTail(outcomes[0]!.result.text, TOOL_RESULT_MAX_CHARS);
    // Rule 4: the tail gets the larger share.
    const [head, tail] = outcomes[0]!.result.text.split(/\n\[… [\d,]+ chars omitted …\]\n/);
    expect(tail!.length).toBeGreaterThan(head!.length);
    expect(outcomes[1]!.result.text).toBe('fine');
  });
});

describe('limits: a model reply', () => {
  it(`keeps text, reasoning and arguments over ${MODEL_REPLY_MAX_CHARS} characters as head and tail`, () => {
    const reply = boundReply({
      content: long(MODEL_REPLY_MAX_CHARS),
      reasoning: long(MODEL_REPLY_MAX_CHARS * 3),
      toolCalls: [
        { id: 'a', name: 'mine', arguments: '{}' },
        { id: 'b', name: 'say', arguments: long(MODEL_REPLY_MAX_CHARS) },
      ],
    });
    expectHeadTail(reply.content, MODEL_REPLY_MAX_CHARS);
    expectHeadTail(reply.reasoning!, MODEL_REPLY_MAX_CHARS);
    expect(reply.toolCalls[0]).toEqual({ id: 'a', name: 'mine', arguments: '{}' });
    expectHeadTail(reply.toolCalls[1]!.arguments, MODEL_REPLY_MAX_CHARS);
    expect(boundReply({ content: 'short', toolCalls: [] })).toEqual({ content: 'short', toolCalls: [] });
  });
});
