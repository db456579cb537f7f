// Rule 18: a turn that did nothing waits a tick. Autoplay sleeps one tick after any turn that made no game action
// (it only looked, or called nothing) and goes straight on after a turn that acted. The sleep is injected: no real
// time passes.
import { describe, expect, it } from 'vitest';
import { runAutoplayTurns } from '../../../internal/session/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { testRunner } from './helpers.js';

const TICK_MS = 7000;

describe('rule 18: autoplay waits a tick after a turn without an action', () => {
  it('sleeps one tick after a query-only turn and after an empty turn, never after a turn that acted', async () => {
    const game = new FakeGame([
      { name: 'mine', result: 'Mined 3 iron_ore.' },
      { name: 'get_status', readOnly: true, result: 'Credits: 100' },
    ]);
    const usage = { promptTokens: 0, completionTokens: 0 };
    const provider = new ScriptedProvider([
      // turn 1: acts
      { toolCalls: [{ name: 'get_status', arguments: {} }], usage },
      { toolCalls: [{ name: 'mine', arguments: {} }], usage },
      { content: 'mined', usage },
      // turn 2: only looks
      { toolCalls: [{ name: 'get_status', arguments: {} }], usage },
      { content: 'looked', usage },
      // turn 3: calls nothing
      { content: 'nothing to do', usage },
      // turn 4: acts
      { toolCalls: [{ name: 'mine', arguments: {} }], usage },
      { content: 'mined', usage },
    ]);
    const runner = testRunner({ provider, game });
    const sleeps: Array<{ ms: number; afterTurn: number }> = [];
    let turnsEnded = 0;
    runner.on((event) => {
      if (event.type === 'turn-end') turnsEnded += 1;
    });
    const summary = await runAutoplayTurns({
      runner,
      goal: 'mine',
      limits: { maxTurns: 4 },
      signal: new AbortController().signal,
      idleWaitMs: TICK_MS,
      isAction: (name) => name === 'mine',
      sleep: async (ms) => void sleeps.push({ ms, afterTurn: turnsEnded }),
    });
    expect(summary.turns).toBe(4);
    expect(summary.actions).toBe(2);
    expect(sleeps).toEqual([
      { ms: TICK_MS, afterTurn: 2 },
      { ms: TICK_MS, afterTurn: 3 },
    ]);
  });
});
