import { describe, expect, it } from 'vitest';
import { cachedRate, costUsd, priceFor } from '../../../internal/provider/index.js';

describe('prices', () => {
  it('knows common models, including dated variants', () => {
    expect(priceFor({ model: 'gpt-4o-mini', local: false })).toEqual({
      price: { inPerM: 0.15, outPerM: 0.6, cachedPerM: 0.075 },
      priced: true,
    });
    expect(priceFor({ model: 'gpt-4o-mini-2024-07-18', local: false }).price).toEqual({
      inPerM: 0.15,
      outPerM: 0.6,
      cachedPerM: 0.075,
    });
    expect(priceFor({ model: 'gpt-4o-2024-08-06', local: false }).price).toEqual({
      inPerM: 2.5,
      outPerM: 10,
      cachedPerM: 1.25,
    });
    expect(priceFor({ model: 'claude-sonnet-4-20250514', local: false }).price.inPerM).toBe(3);
    expect(priceFor({ model: 'meta-llama/llama-3.1-8b-instruct', local: false }).priced).toBe(true);
  });

  it('local is free, override wins, unknown remote is unpriced', () => {
    expect(priceFor({ model: 'gpt-4o', local: true })).toEqual({ price: { inPerM: 0, outPerM: 0 }, priced: true });
    expect(priceFor({ model: 'gpt-4o', local: false, price: { inPerM: 1, outPerM: 2 } }).price).toEqual({
      inPerM: 1,
      outPerM: 2,
    });
    expect(priceFor({ model: 'mystery-model-9000', local: false })).toEqual({
      price: { inPerM: 0, outPerM: 0 },
      priced: false,
    });
  });

  it("bills cached tokens at the model's own cached rate, from the table", () => {
    // Each family's published ratio of cached to input price: the table must not flatten them to one discount.
    const ratio = (model: string): number => {
      const { price } = priceFor({ model, local: false });
      return cachedRate(price) / price.inPerM;
    };
    expect(ratio('gpt-4o')).toBeCloseTo(0.5, 10);
    expect(ratio('gpt-4.1-mini')).toBeCloseTo(0.25, 10);
    expect(ratio('gpt-5-mini')).toBeCloseTo(0.1, 10);
    expect(ratio('claude-sonnet-4-20250514')).toBeCloseTo(0.1, 10);
    expect(ratio('deepseek-chat')).toBeLessThan(0.3);
    // No published cached rate: billed at the input price, never an invented discount.
    expect(ratio('llama-3.3-70b-versatile')).toBe(1);
    expect(priceFor({ model: 'llama-3.3-70b-versatile', local: false }).price.cachedPerM).toBeUndefined();
  });

  it('computes cost with cached tokens at the cached rate', () => {
    const price = { inPerM: 2, outPerM: 8, cachedPerM: 0.5 };
    expect(costUsd({ promptTokens: 1_000_000, completionTokens: 0 }, price)).toBeCloseTo(2, 10);
    expect(costUsd({ promptTokens: 0, completionTokens: 500_000 }, price)).toBeCloseTo(4, 10);
    expect(costUsd({ promptTokens: 1_000_000, completionTokens: 0, cachedTokens: 1_000_000 }, price)).toBeCloseTo(
      0.5,
      10,
    );
    expect(costUsd({ promptTokens: 1_000_000, completionTokens: 0, cachedTokens: 250_000 }, price)).toBeCloseTo(
      0.75 * 2 + 0.25 * 0.5,
      10,
    );
    // Cached tokens beyond the prompt are clamped rather than giving a negative fresh count.
    expect(costUsd({ promptTokens: 10, completionTokens: 0, cachedTokens: 50 }, price)).toBeCloseTo(
      (10 * 0.5) / 1e6,
      15,
    );
    // A price without a cached rate bills cached tokens as fresh ones.
    expect(
      costUsd({ promptTokens: 1_000_000, completionTokens: 0, cachedTokens: 1_000_000 }, { inPerM: 2, outPerM: 8 }),
    ).toBeCloseTo(2, 10);
  });
});

describe('contextWindowFor', () => {
  it('knows hosted families and leaves local and unknown models undefined', async () => {
    const { contextWindowFor } = await import('../../../internal/provider/index.js');
    expect(contextWindowFor('gpt-4o-mini', false)).toBe(128_000);
    expect(contextWindowFor('gpt-4.1-nano', false)).toBe(1_047_576);
    expect(contextWindowFor('claude-haiku-4-5', false)).toBe(200_000);
    expect(contextWindowFor('meta-llama/llama-3.1-8b-instruct', false)).toBe(131_072);
    expect(contextWindowFor('gpt-4o-mini', true)).toBeUndefined();
    expect(contextWindowFor('mystery', false)).toBeUndefined();
  });
});
