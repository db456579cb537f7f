// The one Retry-After reader: header seconds, HTTP dates and JSON seconds all come back as milliseconds.
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../internal/shared/index.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['header seconds', '1', 1000],
    ['fractional header seconds', '0.5', 500],
    ['padded header seconds', ' 12 ', 12_000],
    ['a leading dot', '.25', 250],
    ['a negative header is no wait', '-5', 0],
    ['an HTTP date ahead', 'Wed, 01 Jan 2025 00:00:10 GMT', 10_000],
    ['an HTTP date gone by is no wait', 'Tue, 31 Dec 2024 00:00:10 GMT', 0],
    ['JSON retry_after seconds', 12, 12_000],
    ['fractional JSON seconds', 0.05, 50],
    ['zero JSON seconds', 0, 0],
    ['negative JSON seconds', -3, 0],
  ] as const)('%s: %j -> %i ms', (_label, value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it.each([['soon'], [''], ['   '], [null], [undefined], [Number.NaN], [Number.POSITIVE_INFINITY]] as const)(
    '%j is unusable',
    (value) => {
      expect(parseRetryAfter(value, NOW)).toBeUndefined();
    },
  );

  it('measures dates from the real time by default', () => {
    const ms = parseRetryAfter(new Date(Date.now() + 10_000).toUTCString());
    expect(ms).toBeGreaterThan(8000);
    expect(ms).toBeLessThanOrEqual(10_000);
  });
});
