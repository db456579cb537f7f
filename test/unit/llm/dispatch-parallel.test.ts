// Dispatch: queries of one round overlap in time (bounded), mutations never overlap and run in the model's order,
// results are stored in the original call order, one per call id.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame, type FakeCall } from '../../fakes/fake-game.js';
import { expectValidTranscript, newHistory } from './helpers.js';
import { settleWithFakeTimers as settle } from '../../fakes/fake-timers.js';

const overlap = (a: FakeCall, b: FakeCall): boolean => a.start < (b.end ?? Infinity) && b.start < (a.end ?? Infinity);

describe('dispatch', () => {
  // The game's delays and the call timings run on a fake clock: overlaps are exact, and cost no waiting.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('runs two queries at the same time and two mutations one after the other, in order', async () => {
    const game = new FakeGame([
      { name: 'get_system', readOnly: true, delayMs: 30, result: 'system' },
      { name: 'get_poi', readOnly: true, delayMs: 10, result: 'poi' },
      { name: 'travel', delayMs: 20, result: 'travelled' },
      { name: 'mine', delayMs: 5, result: 'mined' },
    ]);
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'a', name: 'get_system' },
          { id: 'b', name: 'get_poi' },
          { id: 'c', name: 'travel', arguments: { target_poi: 'belt' } },
          { id: 'd', name: 'mine' },
        ],
      },
      { content: 'done' },
    ]);
    const history = newHistory();
    const result = await settle(
      runTurn({ provider, game, tools: game.specs(), history, systemPrompt: 's', input: { kind: 'user', text: 'go' } }),
    );
    expect(result.outcome).toBe('answered');
    const [system, poi, travel, mine] = game.calls as [FakeCall, FakeCall, FakeCall, FakeCall];
    expect(game.calls.map((call) => call.name)).toEqual(['get_system', 'get_poi', 'travel', 'mine']);
    expect(overlap(system, poi)).toBe(true);
    expect(overlap(travel, mine)).toBe(false);
    expect(travel.end ?? 0).toBeLessThanOrEqual(mine.start);
    // A mutation waits for the queries before it.
    expect(system.end ?? 0).toBeLessThanOrEqual(travel.start);
    // get_poi finished first, but results are stored in the model's order.
    const results = history.snapshot().filter((message) => message.role === 'tool');
    expect(results.map((message) => message.toolCallId)).toEqual(['a', 'b', 'c', 'd']);
    expectValidTranscript(history.snapshot());
  });

  it('bounds parallel queries by the concurrency limit', async () => {
    let running = 0;
    let peak = 0;
    const game = new FakeGame([
      {
        name: 'get_poi',
        readOnly: true,
        result: async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
          return 'poi';
        },
      },
    ]);
    const provider = new ScriptedProvider([
      { toolCalls: Array.from({ length: 10 }, (_, i) => ({ name: 'get_poi', arguments: { poi_id: `p${i}` } })) },
      { content: 'done' },
    ]);
    const history = newHistory();
    await settle(runTurn({ provider, game, tools: game.specs(), history, systemPrompt: 's', concurrency: 3 }));
    expect(peak).toBe(3);
    expect(history.snapshot().filter((message) => message.role === 'tool')).toHaveLength(10);
  });

  it('emits tool-call and tool-result events with readOnly flags and timings', async () => {
    const game = new FakeGame([{ name: 'get_cargo', readOnly: true }, { name: 'sell' }]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'get_cargo' }, { name: 'sell', arguments: { item_id: 'iron_ore', quantity: 1 } }] },
      { content: 'sold' },
    ]);
    const events: string[] = [];
    await runTurn({
      provider,
      game,
      tools: game.specs(),
      history: newHistory(),
      systemPrompt: 's',
      onEvent: (event) => {
        if (event.type === 'tool-call') events.push(`call ${event.call.name} ${event.readOnly ? 'query' : 'mutation'}`);
        else if (event.type === 'tool-result') events.push(`result ${event.call.name} ${event.ms >= 0}`);
        else if (event.type !== 'delta') events.push(event.type);
      },
    });
    expect(events).toEqual([
      'round-start',
      'usage',
      'assistant-message',
      'call get_cargo query',
      'call sell mutation',
      'result get_cargo true',
      'result sell true',
      'round-end',
      'round-start',
      'usage',
      'assistant-message',
      'round-end',
    ]);
  });
});
