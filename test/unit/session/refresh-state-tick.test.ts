// /status between turns (SessionRunner.refreshState): the game is asked afresh, and the answer is stamped with the
// game's tick read again then — not with the tick of the last turn, which is all a clock nobody refreshed between
// turns knew (a remote game's /health clock) — even when the answer says nothing new.
import { describe, expect, it } from 'vitest';
import { createHistory } from '../../../internal/llm/index.js';
import { SessionRunner, type RunnerStore } from '../../../internal/session/index.js';
import { silentLogger } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';

const nullStore: RunnerStore = {
  recordUsage: async () => {},
  recordSnapshot: async () => {},
  recordTurn: async () => {},
};
const STATUS = { player: { username: 'nova', credits: 150 }, ship: { fuel: 98, max_fuel: 100 } };

function runner(clock: { tick: number; reads: number; serverTick: number }, game = statusGame()): SessionRunner {
  return new SessionRunner({
    sessionId: 's',
    sessionName: 'test',
    store: nullStore,
    history: createHistory(),
    provider: new ScriptedProvider([]),
    game,
    tools: game.specs(),
    systemPrompt: () => 'test',
    maxRounds: 5,
    logger: silentLogger,
    tick: () => clock.tick,
    refreshTick: async () => {
      clock.reads += 1;
      clock.tick = clock.serverTick;
    },
  });
}

function statusGame(): FakeGame {
  return new FakeGame([
    {
      name: 'get_status',
      readOnly: true,
      result: { text: 'nova [solarian] | 150cr | Sol', data: STATUS, isError: false },
    },
  ]);
}

describe('refreshState between turns', () => {
  it("asks the game afresh, past the connection's answers of this tick (the game moves on its own)", async () => {
    const game = statusGame();
    await runner({ tick: 1, reads: 0, serverTick: 1 }, game).refreshState();
    expect(game.calls.map((call) => [call.name, call.fresh])).toEqual([['get_status', true]]);
  });

  it("reads the game's tick again and stamps the fresh answer with it, even when the answer says nothing new", async () => {
    const clock = { tick: 1, reads: 0, serverTick: 1 };
    const session = runner(clock);
    const first = await session.refreshState();
    expect(first?.tick).toBe(1);
    expect(first?.credits).toBe(150);
    clock.serverTick = 9; // ticks passed while nobody played
    const second = await session.refreshState();
    expect(clock.reads).toBe(2);
    expect(second).not.toBe(first); // a fresh state: /status does not show it "as of" an older tick
    expect(second?.tick).toBe(9);
    expect(second?.credits).toBe(150);
  });
});
