// The benchmarks' --json in snake_case like every other --json: names converted at every depth, codes left alone.
import { describe, expect, it } from 'vitest';
import { snakeCase, snakeCaseKeys, type SnakeCased } from '../../../internal/bench/json.js';

describe('bench --json casing', () => {
  it('writes camelCase names in snake_case, numbers as their own word', () => {
    expect(snakeCase('startedAt')).toBe('started_at');
    expect(snakeCase('outcomePer100Ticks')).toBe('outcome_per_100_ticks');
    expect(snakeCase('usdPer1000Credits')).toBe('usd_per_1000_credits');
    expect(snakeCase('invalid_params')).toBe('invalid_params');
    // Named in snake_case where they are made: a digit after a letter is not split off.
    expect(snakeCase('ci95_low')).toBe('ci95_low');
    expect(snakeCase('p95Ms')).toBe('p_95_ms');
    expect(snakeCase('no-plan')).toBe('no-plan');
  });

  it('converts keys at every depth and leaves values, arrays and nulls as they are', () => {
    const run = {
      sessionName: 'bench-grind-1',
      errorsByCode: { invalid_params: 2 },
      usage: { promptTokens: 10, costUsd: 0 },
      scores: [{ ratioToAutopilot: null, model: 'builtin/autopilot' }],
    };
    const json: SnakeCased<typeof run> = snakeCaseKeys(run);
    expect(json).toEqual({
      session_name: 'bench-grind-1',
      errors_by_code: { invalid_params: 2 },
      usage: { prompt_tokens: 10, cost_usd: 0 },
      scores: [{ ratio_to_autopilot: null, model: 'builtin/autopilot' }],
    });
    expect(json.scores[0]!.ratio_to_autopilot).toBeNull();
  });
});
