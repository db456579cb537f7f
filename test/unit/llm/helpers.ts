// Shared bits for the loop's unit tests: a transcript validator (what a strict chat server checks) and a setup.
import { expect } from 'vitest';
import type { Message } from '../../../internal/shared/index.js';
import { createHistory, type History } from '../../../internal/llm/index.js';

/** Problems a strict OpenAI-compatible server would reject: unanswered calls, orphan or duplicate tool messages. */
export function transcriptProblems(messages: Message[]): string[] {
  const problems: string[] = [];
  let open = new Map<string, boolean>();
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (!message.toolCallId || !open.has(message.toolCallId))
        problems.push(`#${index}: tool message without its call`);
      else if (open.get(message.toolCallId)) problems.push(`#${index}: second answer to ${message.toolCallId}`);
      else open.set(message.toolCallId, true);
      continue;
    }
    for (const [id, answered] of open) if (!answered) problems.push(`#${index}: call ${id} not answered`);
    open = new Map();
    if (message.role === 'assistant') {
      if (!Array.isArray(message.toolCalls)) problems.push(`#${index}: assistant without a toolCalls list`);
      for (const call of message.toolCalls ?? []) open.set(call.id, false);
    }
  }
  for (const [id, answered] of open) if (!answered) problems.push(`end: call ${id} not answered`);
  return problems;
}

export function expectValidTranscript(messages: Message[]): void {
  expect(transcriptProblems(messages)).toEqual([]);
}

export function newHistory(initial: Message[] = []): History {
  let next = 0;
  let clock = 1_000;
  return createHistory({ initial, newId: () => `m${++next}`, now: () => ++clock });
}

export const userInput = (text: string): { kind: 'user'; text: string } => ({ kind: 'user', text });
