// Rules 9 and 12: an abort reaches provider and game, leaves a transcript that is valid to send again (every call
// answered), stores and emits nothing late, and ends the turn as 'cancelled'.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { CANCELLED_TEXT, runTurn, type TurnEvent } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { expectValidTranscript, newHistory } from './helpers.js';

describe('rules 9 and 12: cancel', () => {
  it('cancels mid provider call without storing an assistant message', async () => {
    const controller = new AbortController();
    const game = new FakeGame([{ name: 'get_status', readOnly: true }]);
    let sawSignal: AbortSignal | undefined;
    const provider = new ScriptedProvider([
      (request) => {
        sawSignal = request.signal;
        setImmediate(() => controller.abort());
        // 60 s, twice the test's timeout: only the cancel reaching the provider ends the turn in time.
        return { content: 'too late', delayMs: 60_000 };
      },
    ]);
    const history = newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'go' },
      systemPrompt: 's',
      signal: controller.signal,
    });
    expect(result.outcome).toBe('cancelled');
    expect(sawSignal).toBe(controller.signal);
    expect(history.snapshot().map((message) => message.role)).toEqual(['user']);
  });

  it('drops a reply from a provider that ignores the signal', async () => {
    const controller = new AbortController();
    let release: () => void = () => undefined;
    const provider = new ScriptedProvider([{ content: 'late reply', toolCalls: [{ name: 'get_status' }] }]);
    const slow = {
      id: 'slow',
      complete: async (request: Parameters<typeof provider.complete>[0]) => {
        await new Promise<void>((resolve) => {
          release = resolve;
          controller.abort();
        });
        return provider.complete({ ...request, signal: undefined });
      },
    };
    const history = newHistory();
    const game = new FakeGame([{ name: 'get_status', readOnly: true }]);
    const result = await runTurn({
      provider: slow,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'go' },
      systemPrompt: 's',
      signal: controller.signal,
    });
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(result.outcome).toBe('cancelled');
    expect(history.length).toBe(1);
    expect(game.calls).toHaveLength(0);
  });

  it('cancels mid tool call: finished results kept, open calls answered "cancelled", late results dropped', async () => {
    const controller = new AbortController();
    const game = new FakeGame([
      { name: 'get_status', readOnly: true, result: 'status ok' },
      { name: 'travel', delayMs: 60, ignoreAbort: true, result: 'arrived (late)' },
      { name: 'mine', result: 'mined' },
    ]);
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'q', name: 'get_status' },
          { id: 't', name: 'travel', arguments: { target_poi: 'belt' } },
          { id: 'm', name: 'mine' },
        ],
      },
    ]);
    const events: TurnEvent[] = [];
    const history = newHistory();
    void game.started('travel').then(() => controller.abort());
    // The travel's 60 ms run on a fake clock: the test lets them pass when it wants the late result, without waiting.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'go' },
      systemPrompt: 's',
      signal: controller.signal,
      onEvent: (event) => events.push(event),
    });
    expect(result.outcome).toBe('cancelled');
    const stored = history.snapshot();
    expectValidTranscript(stored);
    const byId = (id: string) => stored.filter((message) => message.toolCallId === id);
    expect(byId('q').map((message) => message.content)).toEqual(['status ok']);
    expect(byId('t').map((message) => message.content)).toEqual([CANCELLED_TEXT]);
    expect(byId('m').map((message) => message.content)).toEqual([CANCELLED_TEXT]);
    expect(byId('t')[0]?.isError).toBe(true);
    // The mutation after the aborted one never ran.
    expect(game.calls.map((call) => call.name)).toEqual(['get_status', 'travel']);
    // The travel call resolves later; nothing more may be stored or emitted.
    const eventsAtAbort = events.length;
    const lengthAtAbort = history.length;
    await vi.advanceTimersByTimeAsync(60);
    await game.idle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(game.lateResults.map((call) => call.name)).toEqual(['travel']);
    expect(history.length).toBe(lengthAtAbort);
    expect(events.length).toBe(eventsAtAbort);
    expect(stored.some((message) => message.content === 'arrived (late)')).toBe(false);
  });

  it('hands the turn signal to the game', async () => {
    const controller = new AbortController();
    const game = new FakeGame([{ name: 'get_poi', readOnly: true, delayMs: 5_000 }]);
    const provider = new ScriptedProvider([{ toolCalls: [{ id: 'p', name: 'get_poi' }] }]);
    void game.started('get_poi').then(() => controller.abort());
    const history = newHistory();
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      systemPrompt: 's',
      input: { kind: 'user', text: 'x' },
      signal: controller.signal,
    });
    expect(result.outcome).toBe('cancelled');
    expect(game.calls[0]?.aborted).toBe(true);
    expectValidTranscript(history.snapshot());
  });

  it('does nothing when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const provider = new ScriptedProvider([]);
    const game = new FakeGame([]);
    const result = await runTurn({
      provider,
      game,
      tools: [],
      history: newHistory(),
      systemPrompt: 's',
      signal: controller.signal,
    });
    expect(result.outcome).toBe('cancelled');
    expect(provider.requests).toHaveLength(0);
  });
});
