// Rule 1: every round is built from a fresh snapshot, so round n+1 sees round n's assistant message and results.
import { describe, expect, it } from 'vitest';
import { createHistory, runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { expectValidTranscript, newHistory, userInput } from './helpers.js';

describe('rule 1: fresh snapshot per round', () => {
  it('keeps the current turn whole when starting it lets a windowed history drop old turns', async () => {
    const game = new FakeGame([
      { name: 'get_status', readOnly: true, result: 'status: fuel 10, cargo 0/70, docked at Sol Central' },
    ]);
    const history = createHistory({ window: 8 });
    for (let turn = 1; turn <= 4; turn += 1) {
      await history.append({ role: 'user', content: `turn ${turn}`, turn });
      await history.append({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `old${turn}`, name: 'get_status', arguments: '{}' }],
        turn,
      });
      await history.append({
        role: 'tool',
        content: 'status: old',
        toolCallId: `old${turn}`,
        toolName: 'get_status',
        turn,
      });
    }
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'now', name: 'get_status' }] },
      (request) => {
        // This turn's own result is sent whole, not stubbed as if it were old history.
        const last = request.messages.at(-1);
        expect(last?.toolCallId).toBe('now');
        expect(last?.content).toBe('status: fuel 10, cargo 0/70, docked at Sol Central');
        expect(request.messages.some((message) => message.role === 'user' && message.content === 'what now?')).toBe(
          true,
        );
        return { content: 'Docked and ready.' };
      },
    ]);
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: userInput('what now?'),
      systemPrompt: 'sys',
      turn: 5,
    });
    expect(result.outcome).toBe('answered');
    expect(history.length).toBeLessThan(12 + 3);
  });

  it('sends round n tool results in the request of round n+1', async () => {
    const game = new FakeGame([
      { name: 'get_status', readOnly: true, result: ['status: fuel 10', 'status: fuel 9'] },
      { name: 'mine', result: 'mined 3 iron_ore' },
    ]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'c1', name: 'get_status' }] },
      (request) => {
        const last = request.messages.at(-1);
        expect(last?.role).toBe('tool');
        expect(last?.toolCallId).toBe('c1');
        expect(last?.content).toBe('status: fuel 10');
        return { toolCalls: [{ id: 'c2', name: 'mine', arguments: { resource_id: 'iron_ore' } }] };
      },
      (request) => {
        const contents = request.messages.map((message) => message.content);
        expect(contents).toContain('status: fuel 10');
        expect(contents.at(-1)).toBe('mined 3 iron_ore');
        return { content: 'Mined some iron.' };
      },
    ]);
    const history = newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: userInput('mine'),
      systemPrompt: 'sys',
    });
    expect(result.outcome).toBe('answered');
    expect(result.rounds).toBe(3);
    expect(provider.requests).toHaveLength(3);
    // Each request is longer than the one before: the history grew between rounds.
    const sizes = provider.requests.map((request) => request.messages.length);
    expect(sizes).toEqual([2, 4, 6]);
    expectValidTranscript(history.snapshot());
  });

  it('builds each request from the history as it is when the round starts', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true, delayMs: 2 }]);
    const history = newHistory();
    const idsNow = (): string[] => history.snapshot().map((message) => message.id);
    const sentIds = (messages: Array<{ id: string; role: string }>): string[] =>
      messages.filter((message) => message.role !== 'system').map((message) => message.id);
    const provider = new ScriptedProvider([
      (request) => {
        expect(sentIds(request.messages)).toEqual(idsNow());
        return {
          toolCalls: [
            { id: 'c1', name: 'get_status' },
            { id: 'c2', name: 'get_status', arguments: { x: 1 } },
          ],
        };
      },
      (request) => {
        expect(sentIds(request.messages)).toEqual(idsNow());
        expect(idsNow()).toHaveLength(4);
        return { content: 'done' };
      },
    ]);
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: userInput('go'),
      systemPrompt: 'sys',
    });
    expect(result.outcome).toBe('answered');
  });
});
