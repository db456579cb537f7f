// storedFigures, the one place every view takes a session's figures from, on a real SQLite file: the whole session
// or one run's span (fromTurn), the game's busy ticks stored with the session winning over Skipper's estimate, the
// handoff turn counted, the duration from the stored turns.
import { describe, expect, it } from 'vitest';
import {
  storedFigures,
  storedFiguresJson,
  storedServerTicks,
  withServerTicks,
} from '../../../internal/session/index.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { tempDbPath } from '../store/helpers.js';

const snapshot = (tick: number, credits: number) => ({
  tick,
  credits,
  netWorth: credits,
  fuel: 10,
  maxFuel: 10,
  cargoUsed: 0,
  cargoCapacity: 50,
  hull: 100,
  maxHull: 100,
  systemId: null,
  poiId: null,
  docked: false,
});

/** Two runs: turns 1–2 from the snapshot of turn 0, then turns 3–4 (4 the handoff) from turn 2's. */
async function twoRuns(store: Store): Promise<string> {
  const session = await store.createSession({ game: 'embedded', model: 'builtin/autopilot', name: 'two-runs' });
  const ticks = [0, 10, 20, 30, 40];
  for (const [turn, tick] of ticks.entries())
    await store.recordSnapshot({ sessionId: session.id, turn, ...snapshot(tick, 100 + turn * 50) });
  for (const turn of [1, 2, 3, 4]) {
    await store.recordTurn({
      sessionId: session.id,
      turn,
      outcome: 'answered',
      rounds: 1,
      toolCalls: 0,
      inputKind: turn === 4 ? 'handoff' : 'autoplay',
      startedAt: 1000 * turn,
      endedAt: 1000 * turn + 500,
    });
  }
  return session.id;
}

describe('storedFigures', () => {
  it('measures the whole session, or one run from its start turn on', async () => {
    const store = await openStore({ path: tempDbPath().file });
    try {
      const id = await twoRuns(store);
      const whole = await storedFigures(store, id);
      expect(whole.turns).toBe(4); // the handoff turn too
      expect(whole.durationMs).toBe(4500 - 1000);
      expect(whole.figures.ticks).toBe(40);
      expect(whole.figures.creditsChange).toBe(200);
      const second = await storedFigures(store, id, { fromTurn: 2 });
      expect(second.turns).toBe(2);
      expect(second.durationMs).toBe(4500 - 3000);
      expect(second.figures.ticks).toBe(20);
      expect(second.figures.start?.credits).toBe(200);
      // No action in the transcript and no busy ticks stored: Skipper's estimate, 0 busy of 40.
      expect(whole.utilisation).toEqual({ value: 0, source: 'estimated' });
      expect(storedFiguresJson(whole)).toMatchObject({ turns: 4, ticks: 40, tick_utilisation_source: 'estimated' });
    } finally {
      await store.close();
    }
  });

  it("uses the game's busy ticks stored with the session, per run", async () => {
    const store = await openStore({ path: tempDbPath().file });
    try {
      const id = await twoRuns(store);
      let extra = withServerTicks({ baseUrl: 'x' }, { fromTurn: 0, busy: 18, alive: 20 });
      extra = withServerTicks(extra, { fromTurn: 2, busy: 10, alive: 20 });
      extra = withServerTicks(extra, { fromTurn: 2, busy: 15, alive: 20 }); // the same run again replaces it
      await store.updateSession(id, { extra });
      expect(storedServerTicks((await store.getSession(id)).extra)).toHaveLength(2);
      expect((await store.getSession(id)).extra.baseUrl).toBe('x');
      expect((await storedFigures(store, id)).utilisation).toEqual({ value: 33 / 40, source: 'server' });
      expect((await storedFigures(store, id, { fromTurn: 2 })).utilisation).toEqual({
        value: 15 / 20,
        source: 'server',
      });
    } finally {
      await store.close();
    }
  });

  it('says null, not 0, when no game state was recorded', async () => {
    const store = await openStore({ path: tempDbPath().file });
    try {
      const session = await store.createSession({ game: 'embedded', model: 'custom/m', name: 'no-state' });
      const json = storedFiguresJson(await storedFigures(store, session.id));
      expect(json).toMatchObject({ turns: 0, duration_ms: null, ticks: null, net_worth_pricing: null });
      expect(json.tick_utilisation).toBeNull();
    } finally {
      await store.close();
    }
  });
});
