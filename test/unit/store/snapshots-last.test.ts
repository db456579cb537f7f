// store.snapshots(id, { last }): the last n turns' snapshots, oldest first (the web page's trails read these instead
// of a session's whole history), on a real file.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

describe('store.snapshots with last', () => {
  it('returns the last n by turn, oldest first, and everything without it', async () => {
    const store = await openStore({ path: tempDbPath().file });
    const session = await store.createSession({ name: 'ada', game: 'embedded', model: 'builtin/autopilot' });
    // Recorded out of order: the turn decides, not the insertion.
    for (const turn of [3, 1, 5, 2, 4]) {
      await store.recordSnapshot({
        sessionId: session.id,
        turn,
        tick: turn * 10,
        credits: turn,
        netWorth: turn,
        fuel: 1,
        maxFuel: 1,
        cargoUsed: 0,
        cargoCapacity: 1,
        hull: 1,
        maxHull: 1,
        systemId: `s${turn}`,
        poiId: null,
        docked: turn === 5,
      });
    }
    expect((await store.snapshots(session.id, { last: 2 })).map((snapshot) => snapshot.turn)).toEqual([4, 5]);
    expect((await store.snapshots(session.id, { last: 2 }))[1]).toMatchObject({
      tick: 50,
      systemId: 's5',
      docked: true,
    });
    expect((await store.snapshots(session.id, { last: 99 })).map((snapshot) => snapshot.turn)).toEqual([1, 2, 3, 4, 5]);
    expect((await store.snapshots(session.id)).map((snapshot) => snapshot.turn)).toEqual([1, 2, 3, 4, 5]);
    expect(await store.snapshots('nobody', { last: 3 })).toEqual([]);
    await store.close();
  });
});
