// The cost plot's data: running totals per captain from the store's usage rows (a flat zero line for a captain without
// model cost), the fleet's sum, and thinning that keeps the first and last points. Real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../internal/store/index.js';
import { Bridge } from '../../../internal/web/bridge.js';
import { costPlot, runningCost, thin, type CostPoint } from '../../../internal/web/cost.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const usage = (costUsd: number) => ({ promptTokens: 1, completionTokens: 1, cachedTokens: 0, costUsd });

describe('cost over time', () => {
  it('plots each captain and the fleet as running totals over one span', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skipper-web-cost-'));
    dirs.push(dir);
    let now = 1_000;
    const store = await openStore({ path: join(dir, 'skipper.db'), now: () => now });
    const paid = await store.createSession({ name: 'paid', game: 'embedded', model: 'openai/gpt-4o-mini' });
    now = 2_000;
    const auto = await store.createSession({ name: 'auto', game: 'embedded', model: 'builtin/autopilot' });
    await store.recordUsage({ sessionId: paid.id, model: 'm', usage: usage(0.5), createdAt: 3_000 });
    await store.recordUsage({ sessionId: auto.id, model: 'builtin/autopilot', usage: usage(0), createdAt: 3_500 });
    await store.recordUsage({ sessionId: paid.id, model: 'm', usage: usage(0.25), createdAt: 4_000 });
    const bridge = new Bridge(store);
    await bridge.poll();

    const plot = await costPlot(store, bridge.cards(), 10_000);
    expect(plot.from).toBe(1_000);
    expect(plot.to).toBe(10_000);
    const byName = new Map(plot.captains.map((captain) => [captain.name, captain]));
    expect(byName.get('paid')).toMatchObject({
      totalUsd: 0.75,
      points: [
        [1_000, 0],
        [3_000, 0.5],
        [4_000, 0.75],
        [10_000, 0.75],
      ],
    });
    expect(byName.get('auto')!.totalUsd).toBe(0);
    expect(byName.get('auto')!.points.every(([, usd]) => usd === 0)).toBe(true);
    expect(plot.fleet.at(-1)).toEqual([10_000, 0.75]);
    await store.close();
  });

  it('puts cached tokens, credits per 1,000 tokens and USD per 1,000 credits beside each cost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skipper-web-cost-'));
    dirs.push(dir);
    const store = await openStore({ path: join(dir, 'skipper.db') });
    const paid = await store.createSession({ name: 'paid', game: 'embedded', model: 'openai/gpt-4o-mini' });
    const unknown = await store.createSession({ name: 'unknown', game: 'embedded', model: 'custom/mystery' });
    const state = { fuel: 1, maxFuel: 1, cargoUsed: 0, cargoCapacity: 1, hull: 1, maxHull: 1 };
    const place = { systemId: 'sol', poiId: null, docked: false };
    for (const session of [paid, unknown]) {
      await store.recordSnapshot({
        sessionId: session.id,
        turn: 0,
        tick: 1,
        credits: 100,
        netWorth: 100,
        ...state,
        ...place,
      });
      await store.recordSnapshot({
        sessionId: session.id,
        turn: 1,
        tick: 9,
        credits: 500,
        netWorth: 500,
        ...state,
        ...place,
      });
    }
    const spent = { promptTokens: 1500, completionTokens: 500, cachedTokens: 1200 };
    await store.recordUsage({ sessionId: paid.id, model: 'm', usage: { ...spent, costUsd: 0.2 } });
    await store.recordUsage({ sessionId: unknown.id, model: 'm', usage: { ...spent, costUsd: 0 } });
    const bridge = new Bridge(store);
    await bridge.poll();

    const plot = await costPlot(store, bridge.cards(), Date.now());
    const byName = new Map(plot.captains.map((captain) => [captain.name, captain]));
    expect(byName.get('paid')).toMatchObject({
      tokens: 2000,
      cached_prompt_tokens: 1200,
      net_worth_change: 400,
      credits_per_1k_tokens: 200,
      usd_per_1k_credits: 0.5,
    });
    // A model without a known price: its cost per credit is unknown, not $0.
    expect(byName.get('unknown')).toMatchObject({
      priced: false,
      credits_per_1k_tokens: 200,
      usd_per_1k_credits: null,
    });
    expect(plot.fleet_economy).toMatchObject({
      tokens: 4000,
      cached_prompt_tokens: 2400,
      net_worth_change: 800,
      credits_per_1k_tokens: 200,
      priced: false,
      usd_per_1k_credits: null,
    });
    await store.close();
  });

  it('thins a long series to the bound, keeping the ends and the order', () => {
    const rounds = Array.from({ length: 1000 }, (_, index) => ({
      turn: index,
      round: 1,
      model: 'm',
      costUsd: 0.001,
      createdAt: 100 + index,
    }));
    const series = runningCost(rounds, { from: 0, to: 5_000 });
    expect(series).toHaveLength(1002);
    const thinned: CostPoint[] = thin(series, 50);
    expect(thinned).toHaveLength(50);
    expect(thinned[0]).toEqual([0, 0]);
    expect(thinned.at(-1)).toEqual(series.at(-1));
    for (let index = 1; index < thinned.length; index++)
      expect(thinned[index]![1]).toBeGreaterThanOrEqual(thinned[index - 1]![1]);
  });
});
