// Empty replies are retried once with a nudge that is never stored; a context-length error compacts harder and
// retries once; a second failure is reported as failed.
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { SkipperError, type Message } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { newHistory } from './helpers.js';

const base = { systemPrompt: 's', input: { kind: 'user' as const, text: 'go' } };
const tooLong = (): SkipperError => new SkipperError('context_length', 'maximum context length is 8192 tokens');

function oldTurns(count: number): Message[] {
  const messages: Message[] = [];
  for (let turn = 1; turn <= count; turn += 1) {
    const at = messages.length;
    messages.push({ id: `u${turn}`, role: 'user', content: `turn ${turn}`, createdAt: at, turn });
    messages.push({
      id: `a${turn}`,
      role: 'assistant',
      content: '',
      toolCalls: [{ id: `c${turn}`, name: 'mine', arguments: '{}' }],
      createdAt: at,
      turn,
    });
    messages.push({
      id: `t${turn}`,
      role: 'tool',
      content: `mined ${turn} `.repeat(100),
      toolCallId: `c${turn}`,
      toolName: 'mine',
      createdAt: at,
      turn,
    });
    messages.push({ id: `f${turn}`, role: 'assistant', content: `done ${turn}`, toolCalls: [], createdAt: at, turn });
  }
  return messages;
}

describe('empty replies', () => {
  it('retries once with a nudge in the request only', async () => {
    const provider = new ScriptedProvider([
      { content: '   ' },
      (request) => {
        expect(request.messages.at(-1)?.content).toMatch(/last reply was empty/);
        return { content: 'Here I am.' };
      },
    ]);
    const history = newHistory();
    const events: string[] = [];
    const result = await runTurn({
      ...base,
      provider,
      game: new FakeGame([]),
      tools: [],
      history,
      onEvent: (event) => event.type === 'notice' && events.push(event.text),
    });
    expect(result.outcome).toBe('answered');
    expect(result.answer).toBe('Here I am.');
    expect(events).toHaveLength(1);
    expect(history.snapshot().map((message) => message.content)).toEqual(['go', 'Here I am.']);
  });

  it('reports a second empty reply as failed, storing nothing', async () => {
    const provider = new ScriptedProvider([{ content: '' }, { content: '' }]);
    const history = newHistory();
    const result = await runTurn({ ...base, provider, game: new FakeGame([]), tools: [], history });
    expect(result.outcome).toBe('failed');
    expect(result.error).toBe('empty reply');
    expect(history.length).toBe(1);
  });
});

describe('context-length errors', () => {
  it('compacts harder and retries once: smaller request, every older result stubbed', async () => {
    const provider = new ScriptedProvider([{ error: tooLong() }, { content: 'fits now' }]);
    const history = newHistory(oldTurns(30));
    const result = await runTurn({
      ...base,
      provider,
      game: new FakeGame([{ name: 'mine' }]),
      tools: [],
      history,
      contextTokens: 6000,
    });
    expect(result.outcome).toBe('answered');
    const [first, second] = provider.requests.map((request) => JSON.stringify(request.messages).length);
    expect(second).toBeLessThan((first ?? 0) * 0.7);
    const olderResults = provider.requests[1]?.messages.filter((message) => message.role === 'tool') ?? [];
    expect(olderResults.length).toBeGreaterThan(0);
    for (const message of olderResults) expect(message.content).toMatch(/^\[mine result omitted: [\d,]+ chars\]$/);
  });

  it('fails the turn when the retry is too long as well', async () => {
    const provider = new ScriptedProvider([{ error: tooLong() }, { error: tooLong() }]);
    const result = await runTurn({
      ...base,
      provider,
      game: new FakeGame([]),
      tools: [],
      history: newHistory(oldTurns(3)),
    });
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatch(/even after compaction/);
    expect(provider.requests).toHaveLength(2);
  });
});

describe('a store that cannot be reached', () => {
  it('ends the turn with the store’s error instead of a failed turn (its player waits for the store)', async () => {
    // A provider that reads the store (the built-in autopilot reads the stored transcript) while PostgreSQL is down.
    const down = new SkipperError('store_unavailable', 'cannot reach postgres://u@db/x: connect ECONNREFUSED', {
      cause: new Error('ECONNREFUSED'),
    });
    const unreadable = new Error('context could not be read', { cause: down });
    const provider = new ScriptedProvider([{ error: unreadable }, { content: 'never asked' }]);
    await expect(runTurn({ ...base, provider, game: new FakeGame([]), tools: [], history: newHistory() })).rejects.toBe(
      unreadable,
    );
    expect(provider.requests).toHaveLength(1);
  });
});
