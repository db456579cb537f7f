// Rule 3: building context never mutates stored messages, their tool-call arrays or arguments.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../internal/shared/index.js';
import { buildContext, runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { newHistory } from './helpers.js';

function longHistory(turns: number): Message[] {
  const messages: Message[] = [];
  let id = 0;
  const push = (message: Omit<Message, 'id' | 'createdAt'>): void => {
    messages.push({ ...message, id: `h${++id}`, createdAt: id });
  };
  for (let turn = 1; turn <= turns; turn += 1) {
    push({ role: 'user', content: `turn ${turn}`, turn });
    push({
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: `q${turn}`, name: 'get_system', arguments: '{"id":"sol"}' },
        { id: `m${turn}`, name: 'mine', arguments: '{}' },
      ],
      turn,
      round: 1,
    });
    push({
      role: 'tool',
      content: 'S'.repeat(3000),
      toolCallId: `q${turn}`,
      toolName: 'get_system',
      data: { system: { id: 'sol' } },
      isError: false,
      turn,
      round: 1,
    });
    push({
      role: 'tool',
      content: 'M'.repeat(2000),
      toolCallId: `m${turn}`,
      toolName: 'mine',
      data: { player: { credits: turn } },
      isError: false,
      turn,
      round: 1,
    });
    push({ role: 'assistant', content: `done ${turn}`, toolCalls: [], turn, round: 2 });
  }
  return messages;
}

describe('rule 3: compression deep-copies', () => {
  it('leaves every stored message byte-identical at every compaction level', () => {
    const history = longHistory(40);
    const before = JSON.stringify(history);
    for (const compaction of [0, 1, 2] as const) {
      const context = buildContext({
        history,
        systemPrompt: 'sys',
        budgetTokens: 3000,
        currentTurnStart: 190,
        compaction,
      });
      // Scribble over everything the context holds: none of it may reach the history.
      for (const message of context) {
        message.content = 'scribbled';
        for (const call of message.toolCalls ?? []) call.arguments = 'scribbled';
        message.toolCalls?.push({ id: 'x', name: 'x', arguments: '' });
        if (message.data && typeof message.data === 'object')
          (message.data as Record<string, unknown>).scribbled = true;
      }
    }
    expect(JSON.stringify(history)).toBe(before);
  });

  it('shares no object with the history, even for whole current-turn messages', () => {
    const history = longHistory(3);
    const context = buildContext({ history, systemPrompt: 'sys', budgetTokens: 100_000, currentTurnStart: 10 });
    const originals = new Set<unknown>(
      history
        .flatMap((message) => [message, message.toolCalls, message.data, ...(message.toolCalls ?? [])])
        .filter((item) => item !== undefined),
    );
    for (const message of context) {
      expect(originals.has(message)).toBe(false);
      expect(originals.has(message.toolCalls)).toBe(false);
      if (message.data !== undefined) expect(originals.has(message.data)).toBe(false);
      for (const call of message.toolCalls ?? []) expect(originals.has(call)).toBe(false);
    }
  });

  it('keeps the stored history identical across a whole turn with compression', async () => {
    const history = newHistory(longHistory(30));
    const before = JSON.stringify(history.snapshot());
    const game = new FakeGame([{ name: 'get_system', readOnly: true, result: 'X'.repeat(20_000) }, { name: 'mine' }]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'get_system', arguments: { id: 'sol' } }] },
      { toolCalls: [{ name: 'mine' }] },
      { content: 'ok' },
    ]);
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'go' },
      systemPrompt: 's',
      contextTokens: 4000,
    });
    expect(result.outcome).toBe('answered');
    expect(JSON.stringify(history.snapshot().slice(0, 150))).toBe(before);
    // The full 20,000-char result is stored even though the model saw a shortened one.
    expect(history.snapshot().some((message) => message.content.length === 20_000)).toBe(true);
  });
});
