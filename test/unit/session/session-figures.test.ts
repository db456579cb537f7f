import { describe, expect, it } from 'vitest';
import { figuresBetween, figuresJson, sessionFigures, usageJson } from '../../../internal/session/index.js';
import type { GameSnapshot } from '../../../internal/store/index.js';
import { sessionLimit } from '../../../internal/llm/guards.js';

const snap = (tick: number, credits: number, netWorth = credits): GameSnapshot => ({
  tick,
  credits,
  netWorth,
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

describe('sessionFigures', () => {
  it('measures between the first and the last snapshot', () => {
    const figures = sessionFigures([snap(3, 150), snap(40, 900, 1200), snap(123, 11_472, 13_047)]);
    expect(figures).toMatchObject({ ticks: 120, creditsChange: 11_322, netWorthChange: 12_897 });
    expect(figures.start?.tick).toBe(3);
    expect(figures.end?.tick).toBe(123);
  });

  it('says null, not zero, when nothing was stored, and never counts ticks backwards', () => {
    expect(sessionFigures([])).toEqual({
      ticks: null,
      creditsChange: null,
      netWorthChange: null,
      start: null,
      end: null,
    });
    expect(sessionFigures([snap(50, 10), snap(20, 5)]).ticks).toBe(0);
  });
});

describe('figuresBetween and the --json names', () => {
  it('measures between two live states, null where a side does not know a figure', () => {
    const figures = figuresBetween({ tick: 5, credits: 100, netWorth: 100 }, { credits: 160, netWorth: 190 });
    expect(figures).toMatchObject({ ticks: null, creditsChange: 60, netWorthChange: 90 });
    expect(figuresBetween(undefined, { credits: 1 }).creditsChange).toBeNull();
  });

  it('writes the figures under the one set of snake_case names', () => {
    expect(figuresJson(sessionFigures([snap(3, 150, 200), snap(13, 90, 260)]))).toEqual({
      ticks: 10,
      credits_start: 150,
      credits_end: 90,
      credits_change: -60,
      net_worth_start: 200,
      net_worth_end: 260,
      net_worth_change: 60,
    });
    expect(usageJson({ promptTokens: 1200, completionTokens: 34, costUsd: 0.5 })).toEqual({
      tokens: 1234,
      prompt_tokens: 1200,
      completion_tokens: 34,
      cached_prompt_tokens: 0,
      cost_usd: 0.5,
      credits_per_1k_tokens: null,
      usd_per_1k_credits: null,
    });
  });

  it('puts credits per 1,000 tokens and USD per 1,000 credits beside the cost, null where undefined', () => {
    const usage = { promptTokens: 1500, completionTokens: 500, cachedTokens: 1000, costUsd: 0.02 };
    expect(usageJson(usage, { creditsGained: 400 })).toMatchObject({
      cached_prompt_tokens: 1000,
      credits_per_1k_tokens: 200,
      usd_per_1k_credits: 0.05,
    });
    // A loss: credits per 1,000 tokens is negative, USD per 1,000 credits has no meaning.
    expect(usageJson(usage, { creditsGained: -100 })).toMatchObject({
      credits_per_1k_tokens: -50,
      usd_per_1k_credits: null,
    });
    // No tokens, nothing gained, a price not known: null, never NaN or Infinity.
    const none = usageJson({ promptTokens: 0, completionTokens: 0, costUsd: 0 }, { creditsGained: 0 });
    expect(none).toMatchObject({ credits_per_1k_tokens: null, usd_per_1k_credits: null });
    expect(usageJson(usage, { creditsGained: 400, priced: false }).usd_per_1k_credits).toBeNull();
  });
});

describe('sessionLimit (a turn stops before a round once a session limit is reached)', () => {
  it('stops with limit_reached and the reason, only once the check says so', () => {
    const limit: { reached?: string } = {};
    const rule = sessionLimit(() => limit.reached);
    const state = {
      rounds: 3,
      usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 },
      consecutiveFailures: 0,
    };
    expect(rule(state)).toBeUndefined();
    limit.reached = 'reached --max-ticks 120';
    expect(rule(state)).toEqual({ outcome: 'limit_reached', error: 'reached --max-ticks 120' });
  });
});
