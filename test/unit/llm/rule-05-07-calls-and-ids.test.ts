// Rule 5: assistant messages keep their tool calls in every path. Rule 7: ids are made by code.
import { describe, expect, it } from 'vitest';
import { createHistory, runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import type { CompletionResponse, Provider } from '../../../internal/shared/index.js';
import { emptyUsage } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { expectValidTranscript, newHistory } from './helpers.js';

describe('rule 5: assistant messages keep their tool calls', () => {
  it('stores tool calls when the content is empty, and an empty list for text-only replies', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true }]);
    const provider = new ScriptedProvider([
      { content: '', reasoning: 'check first', toolCalls: [{ id: 'c1', name: 'get_status' }] },
      { content: 'All good.' },
    ]);
    const history = newHistory();
    await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'status' },
      systemPrompt: 's',
      turn: 7,
    });
    const assistants = history.snapshot().filter((message) => message.role === 'assistant');
    expect(assistants[0]?.toolCalls).toEqual([{ id: 'c1', name: 'get_status', arguments: '{}' }]);
    expect(assistants[0]?.reasoning).toBe('check first');
    expect(assistants[1]?.toolCalls).toEqual([]);
    expect(history.snapshot().every((message) => message.turn === 7)).toBe(true);
    expect(assistants.map((message) => message.round)).toEqual([1, 2]);
    // The request of round 2 carries the calls too.
    const sent = provider.requests[1]?.messages.find((message) => message.role === 'assistant');
    expect(sent?.toolCalls).toHaveLength(1);
  });
});

describe('rule 7: ids are made by code', () => {
  it('generates missing and repeated tool-call ids and answers each one once', async () => {
    const game = new FakeGame([
      { name: 'get_status', readOnly: true },
      { name: 'get_cargo', readOnly: true },
    ]);
    let calls = 0;
    const provider: Provider = {
      id: 'test/raw',
      async complete(): Promise<CompletionResponse> {
        calls += 1;
        const toolCalls =
          calls === 1
            ? [
                { id: '', name: 'get_status', arguments: '{}' },
                { id: 'dup', name: 'get_cargo', arguments: '{}' },
                { id: 'dup', name: 'get_status', arguments: '{"a":1}' },
              ]
            : [];
        return {
          message: { content: calls === 1 ? '' : 'done', toolCalls },
          usage: emptyUsage(),
          finishReason: 'stop',
          model: 'raw',
        };
      },
    };
    let next = 0;
    const history = createHistory({ newId: () => `id-${++next}` });
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'go' },
      systemPrompt: 's',
    });
    expect(result.outcome).toBe('answered');
    const messages = history.snapshot();
    expect(messages.map((message) => message.id)).toEqual(messages.map((_, index) => `id-${index + 1}`));
    const ids = messages[1]?.toolCalls?.map((call) => call.id) ?? [];
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => id.length > 0)).toBe(true);
    expect(ids[1]).toBe('dup');
    expectValidTranscript(messages);
  });
});
