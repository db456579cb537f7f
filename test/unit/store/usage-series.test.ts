// The store's cost-over-time read (usageSeries): one point per recorded model round, oldest first, on a real file;
// the web page's cost plot is drawn from it.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

const usage = (costUsd: number) => ({ promptTokens: 10, completionTokens: 5, cachedTokens: 0, costUsd });

describe('store.usageSeries', () => {
  it('returns every round of the session by time, not by insertion, and only that session', async () => {
    const store = await openStore({ path: tempDbPath().file });
    const ada = await store.createSession({ name: 'ada', game: 'embedded', model: 'openai/gpt-4o-mini' });
    const bob = await store.createSession({ name: 'bob', game: 'embedded', model: 'openai/gpt-4o-mini' });
    await store.recordUsage({ sessionId: ada.id, turn: 2, round: 1, model: 'm2', usage: usage(0.02), createdAt: 2000 });
    await store.recordUsage({ sessionId: ada.id, turn: 1, round: 1, model: 'm1', usage: usage(0.01), createdAt: 1000 });
    await store.recordUsage({ sessionId: bob.id, turn: 1, round: 1, model: 'm1', usage: usage(5), createdAt: 1500 });
    await store.recordUsage({ sessionId: ada.id, turn: 2, round: 2, model: 'm2', usage: usage(0.03), createdAt: 2000 });

    const series = await store.usageSeries(ada.id);
    expect(series).toEqual([
      { turn: 1, round: 1, model: 'm1', costUsd: 0.01, createdAt: 1000 },
      { turn: 2, round: 1, model: 'm2', costUsd: 0.02, createdAt: 2000 },
      { turn: 2, round: 2, model: 'm2', costUsd: 0.03, createdAt: 2000 },
    ]);
    expect(series.reduce((sum, point) => sum + point.costUsd, 0)).toBeCloseTo(
      (await store.usageTotals(ada.id)).costUsd,
    );
    expect((await store.usageSeries(ada.id, { sinceMs: 1500 })).map((point) => point.costUsd)).toEqual([0.02, 0.03]);
    await store.close();
  });

  it('is empty for a session without model rounds (an autopilot captain) and for an unknown id', async () => {
    const store = await openStore({ path: tempDbPath().file });
    const auto = await store.createSession({ name: 'auto', game: 'embedded', model: 'builtin/autopilot' });
    expect(await store.usageSeries(auto.id)).toEqual([]);
    expect(await store.usageSeries('no-such-session')).toEqual([]);
    await store.close();
  });
});
