// repairForSend (rule 9): what is sent answers each tool call once, right after it, in the calls' order; results
// without their call, or answering a call twice, are dropped; a call with no answer gets a cancelled one.
import { describe, expect, it } from 'vitest';
import { CANCELLED_TEXT, repairForSend } from '../../../internal/llm/index.js';
import type { Message, ToolCall } from '../../../internal/shared/index.js';

const call = (id: string, name = 'mine'): ToolCall => ({ id, name, arguments: '{}' });
const assistant = (id: string, calls: ToolCall[]): Message => ({
  id,
  role: 'assistant',
  content: '',
  toolCalls: calls,
  createdAt: 5,
});
const result = (id: string, callId: string | undefined): Message => ({
  id,
  role: 'tool',
  content: `result ${id}`,
  ...(callId !== undefined ? { toolCallId: callId } : {}),
  toolName: 'mine',
  createdAt: 6,
});

describe('repairForSend', () => {
  it('keeps answers in any order, once each, and drops answers to no open call', () => {
    const sent = repairForSend([
      assistant('a', [call('c1'), call('c2')]),
      result('r2', 'c2'),
      result('r9', 'c9'),
      result('r1', 'c1'),
      result('r1again', 'c1'),
      result('rnone', undefined),
    ]);
    expect(sent.map((message) => message.id)).toEqual(['a', 'r2', 'r1']);
  });

  it('answers each unanswered call as cancelled, in the calls’ order, after the real answers', () => {
    const sent = repairForSend([
      assistant('a', [call('c1', 'mine'), call('c2', 'travel'), call('c3', 'sell')]),
      result('r2', 'c2'),
    ]);
    expect(sent.map((message) => message.id)).toEqual(['a', 'r2', 'synthetic-c1', 'synthetic-c3']);
    expect(sent[2]).toMatchObject({ role: 'tool', toolCallId: 'c1', toolName: 'mine', isError: true, createdAt: 5 });
    expect(sent[2]?.content).toBe(CANCELLED_TEXT);
    expect(sent[3]).toMatchObject({ toolCallId: 'c3', toolName: 'sell' });
  });

  it('treats a call id made twice as one call, answered once, at its first place with the later fields', () => {
    const twice = repairForSend([assistant('a', [call('c1', 'mine'), call('c2'), call('c1', 'dock')])]);
    expect(twice.map((message) => message.id)).toEqual(['a', 'synthetic-c1', 'synthetic-c2']);
    expect(twice[1]).toMatchObject({ toolName: 'dock' });
    const answered = repairForSend([assistant('a', [call('c1'), call('c1')]), result('r1', 'c1'), result('r1b', 'c1')]);
    expect(answered.map((message) => message.id)).toEqual(['a', 'r1']);
  });

  it('drops a result that follows no assistant call at all', () => {
    const user: Message = { id: 'u', role: 'user', content: 'go', createdAt: 1 };
    expect(repairForSend([user, result('r', 'c1'), assistant('a', [])]).map((m) => m.id)).toEqual(['u', 'a']);
  });
});
