// Rule 6: autoplay is single flight. The next turn starts only after the last one ended, pacing comes from the game
// (a slow mutation is waited out inside the call, not by a timer), a second turn is refused while one runs, and the
// stop rules (turns, ticks, token budget) end it honestly.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runAutoplayTurns, stopReasonText, stopRules } from '../../../internal/session/index.js';
import type { SessionRunner } from '../../../internal/session/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { emptyUsage } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { testRunner } from './helpers.js';
import { settleWithFakeTimers as settle } from '../../fakes/fake-timers.js';

function setUp(options: { mineDelayMs: number; turns: number; tokensPerCall?: number }): {
  runner: SessionRunner;
  game: FakeGame;
  spans: Array<[number, number]>;
} {
  let tick = 0;
  const game = new FakeGame([
    {
      name: 'mine',
      delayMs: options.mineDelayMs,
      result: () => {
        tick += 1;
        return {
          text: `Mined 3 iron_ore. Tick ${tick}`,
          isError: false,
          data: { player: { credits: 100 + tick }, ship: { fuel: 10 }, tick },
        };
      },
    },
  ]);
  const steps = [];
  for (let turn = 0; turn < options.turns; turn += 1) {
    const usage = { promptTokens: options.tokensPerCall ?? 0, completionTokens: 0 };
    steps.push({ toolCalls: [{ name: 'mine', arguments: {} }], usage }, { content: 'mined', usage });
  }
  const provider = new ScriptedProvider(steps);
  const runner = testRunner({ provider, game });
  const spans: Array<[number, number]> = [];
  let started = 0;
  runner.on((event) => {
    if (event.type === 'turn-start') started = performance.now();
    if (event.type === 'turn-end') spans.push([started, performance.now()]);
  });
  return { runner, game, spans };
}

describe('rule 6: autoplay is single flight', () => {
  // The game's delays and the turn spans run on a fake clock: a slow game costs the test no time.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('never overlaps turns, even when the game is slow, and a second turn is refused while one runs', async () => {
    const { runner, spans } = setUp({ mineDelayMs: 30, turns: 4 });
    const controller = new AbortController();
    const first = runner.run({ kind: 'autoplay', text: 'go' }, { signal: controller.signal });
    await expect(runner.run({ kind: 'autoplay', text: 'again' })).rejects.toThrow(/already running/);
    await settle(first);
    const summary = await settle(
      runAutoplayTurns({
        runner,
        goal: 'mine',
        limits: { maxTurns: 3 },
        signal: controller.signal,
        idleWaitMs: 1000,
        isAction: (name) => name === 'mine',
      }),
    );
    expect(summary.turns).toBe(3);
    expect(summary.actions).toBe(3);
    expect(summary.stopReason).toEqual({ code: 'max_turns', limit: 3 });
    expect(stopReasonText(summary.stopReason)).toBe('reached --max-turns 3');
    expect(spans).toHaveLength(4);
    for (let index = 1; index < spans.length; index += 1)
      expect(spans[index]![0]).toBeGreaterThanOrEqual(spans[index - 1]![1]);
    // Each turn lasted as long as the game made it wait: the pace came from the game, not from a timer.
    for (const [start, end] of spans) expect(end - start).toBeGreaterThanOrEqual(30);
  });

  it('stops at the token budget and says so', async () => {
    const { runner } = setUp({ mineDelayMs: 0, turns: 10, tokensPerCall: 400 });
    const summary = await settle(
      runAutoplayTurns({
        runner,
        goal: 'mine',
        limits: { budgetTokens: 1000 },
        signal: new AbortController().signal,
        idleWaitMs: 1000,
        isAction: (name) => name === 'mine',
      }),
    );
    expect(summary.stopReason.code).toBe('budget_exceeded');
    expect(summary.usage.promptTokens).toBeGreaterThanOrEqual(1000);
    expect(summary.usage.promptTokens).toBeLessThan(2000);
  });

  it('stop rules are small predicates', () => {
    const progress = {
      turns: 5,
      startedAt: 0,
      startTick: 10,
      tick: 60,
      usage: { ...emptyUsage(), promptTokens: 900 },
      startUsage: emptyUsage(),
    };
    const reasons = (limits: Parameters<typeof stopRules>[0]): Array<string | undefined> =>
      stopRules(limits, () => 1000).map((rule) => {
        const reason = rule(progress);
        return reason && stopReasonText(reason);
      });
    expect(reasons({ maxTurns: 5 })).toEqual(['reached --max-turns 5']);
    expect(reasons({ maxTurns: 6 })).toEqual([undefined]);
    expect(reasons({ maxTicks: 50 })).toEqual(['reached --max-ticks 50']);
    expect(reasons({ maxTicks: 51 })).toEqual([undefined]);
    expect(reasons({ durationMs: 1000 })).toEqual(['reached --duration']);
    expect(reasons({ budgetTokens: 1000 })).toEqual([undefined]);
    expect(reasons({ budgetTokens: 900 })).toEqual(['token budget of 900 spent']);
  });
});
