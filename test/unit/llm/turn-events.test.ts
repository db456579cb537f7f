// A turn as an async generator of typed events: the events come in loop order, the generator returns the result, a
// tool result waits until its event is taken, and nothing of a dead turn is yielded (rule 12).
import { describe, expect, it } from 'vitest';
import { budgetOverrun, drainEvents, runTurnEvents, type TurnEvent } from '../../../internal/llm/index.js';
import { pumpEvents } from '../../../internal/llm/event-stream.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { emptyUsage } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { newHistory } from './helpers.js';

describe('runTurnEvents', () => {
  it('yields the turn as typed events and returns the result', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true, result: 'status ok' }]);
    const provider = new ScriptedProvider([{ toolCalls: [{ id: 'a', name: 'get_status' }] }, { content: 'done' }]);
    const events: TurnEvent[] = [];
    const result = await drainEvents(
      runTurnEvents({
        provider,
        game,
        tools: game.specs(),
        history: newHistory(),
        input: { kind: 'user', text: 'go' },
        systemPrompt: 's',
      }),
      (event) => events.push(event),
    );
    expect(result.outcome).toBe('answered');
    expect(result.answer).toBe('done');
    expect(events.filter((event) => event.type !== 'delta').map((event) => event.type)).toEqual([
      'round-start',
      'usage',
      'assistant-message',
      'tool-call',
      'tool-result',
      'round-end',
      'round-start',
      'usage',
      'assistant-message',
      'round-end',
    ]);
    const toolResult = events.find((event) => event.type === 'tool-result');
    expect(
      toolResult?.type === 'tool-result' && [toolResult.call.id, toolResult.message.toolCallId, toolResult.result.text],
    ).toEqual(['a', 'a', 'status ok']);
  });

  it('yields nothing after an abort, and still returns the cancelled result', async () => {
    const controller = new AbortController();
    const game = new FakeGame([{ name: 'get_poi', readOnly: true, delayMs: 5_000 }]);
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'get_poi' }] }]);
    void game.started('get_poi').then(() => controller.abort());
    const events: TurnEvent[] = [];
    const result = await drainEvents(
      runTurnEvents({
        provider,
        game,
        tools: game.specs(),
        history: newHistory(),
        input: { kind: 'user', text: 'go' },
        systemPrompt: 's',
        signal: controller.signal,
      }),
      (event) => {
        expect(controller.signal.aborted).toBe(false);
        events.push(event);
      },
    );
    expect(result.outcome).toBe('cancelled');
    expect(events.some((event) => event.type === 'tool-result')).toBe(false);
  });
});

describe('pumpEvents', () => {
  it('yields what the work pushes, in order, then returns its result; a push waits until its event is taken', async () => {
    const log: string[] = [];
    const events = pumpEvents<string, number>(async (push) => {
      await push('a');
      log.push('a taken');
      await push('b');
      log.push('b taken');
      return 7;
    });
    const result = await drainEvents(events, (event) => log.push(`got ${event}`));
    expect(result).toBe(7);
    expect(log).toEqual(['got a', 'a taken', 'got b', 'b taken']);
  });

  it('yields the events pushed before the work failed, then throws its error', async () => {
    const seen: string[] = [];
    const events = pumpEvents<string, void>(async (push) => {
      void push('first');
      throw new Error('boom');
    });
    await expect(drainEvents(events, (event) => seen.push(event))).rejects.toThrow('boom');
    expect(seen).toEqual(['first']);
  });

  it('lets the work go on when the consumer leaves early', async () => {
    let finished = false;
    const events = pumpEvents<number, void>(async (push) => {
      for (let index = 0; index < 3; index += 1) await push(index);
      finished = true;
    });
    expect((await events.next()).value).toBe(0);
    await events.return(undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(true);
  });
});

describe('budgetOverrun: the one budget check', () => {
  const usage = (tokens: number, costUsd = 0) => ({ ...emptyUsage(), promptTokens: tokens, costUsd });
  it('counts what was spent before plus the usage since, tokens first', () => {
    expect(budgetOverrun({ tokens: 1000, spent: usage(600) }, usage(300))).toBeUndefined();
    expect(budgetOverrun({ tokens: 1000, spent: usage(600) }, usage(400))).toEqual({
      unit: 'tokens',
      used: 1000,
      limit: 1000,
    });
    expect(budgetOverrun({ usd: 1 }, usage(0, 0.99))).toBeUndefined();
    expect(budgetOverrun({ usd: 1, spent: usage(0, 0.5) }, usage(0, 0.5))).toEqual({ unit: 'usd', used: 1, limit: 1 });
    expect(budgetOverrun({ tokens: 10, usd: 1 }, usage(10, 2))?.unit).toBe('tokens');
    expect(budgetOverrun({}, usage(1e9, 1e9))).toBeUndefined();
  });
});
