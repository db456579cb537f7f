import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, RetriesExhausted, withRetry } from '../../../internal/provider/index.js';
import { AbortedError, parseRetryAfter as sharedParseRetryAfter, sleep } from '../../../internal/shared/index.js';

class Flaky extends Error {
  constructor(
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super('flaky');
  }
}
const classify = (error: unknown) =>
  error instanceof Flaky && error.retryable
    ? { retry: true, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) }
    : { retry: false };

function fakeClock(): { sleeps: number[]; sleep: (ms: number) => Promise<void> } {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms) => void sleeps.push(ms) };
}

describe('withRetry', () => {
  it('retries retryable failures with exponential full-jitter backoff, then succeeds', async () => {
    const clock = fakeClock();
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls += 1;
        if (calls < 4) throw new Flaky(true);
        return 'ok';
      },
      { classify, baseMs: 100, maxMs: 250, maxAttempts: 4, sleep: clock.sleep, random: () => 0.999 },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(4);
    expect(clock.sleeps).toEqual([99, 199, 249]); // ceilings 100, 200, capped 250
  });

  it('jitter spans [0, ceiling)', () => {
    expect(backoffDelay(3, { baseMs: 100, maxMs: 10_000 }, () => 0)).toBe(0);
    expect(backoffDelay(3, { baseMs: 100, maxMs: 10_000 }, () => 0.5)).toBe(200);
  });

  it('stops after maxAttempts with RetriesExhausted carrying the last error', async () => {
    const clock = fakeClock();
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls += 1;
        throw new Flaky(true);
      },
      { classify, maxAttempts: 3, sleep: clock.sleep },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RetriesExhausted);
    expect((error as RetriesExhausted).attempts).toBe(3);
    expect((error as Error).cause).toBeInstanceOf(Flaky);
    expect(calls).toBe(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('does not retry final errors', async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls += 1;
        throw new Flaky(false);
      },
      { classify, sleep: fakeClock().sleep },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Flaky);
    expect(calls).toBe(1);
  });

  it('honours Retry-After, capped', async () => {
    const clock = fakeClock();
    let calls = 0;
    await withRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw new Flaky(true, 1500);
        if (calls === 2) throw new Flaky(true, 3_600_000);
        return 'ok';
      },
      { classify, maxRetryAfterMs: 30_000, sleep: clock.sleep, random: () => 0 },
    );
    expect(clock.sleeps).toEqual([1500, 30_000]);
  });

  it('an abort during the wait rejects at once with AbortedError', async () => {
    const controller = new AbortController();
    let calls = 0;
    // The real abortable sleep, with a hook that says when the wait has begun (instead of sleeping to get there).
    let waitBegan: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (waitBegan = resolve));
    const pending = withRetry(
      async () => {
        calls += 1;
        throw new Flaky(true, 60_000);
      },
      {
        classify,
        signal: controller.signal,
        sleep: (ms, signal) => {
          waitBegan();
          return sleep(ms, signal);
        },
      },
    );
    await waiting;
    // The wait is the server's 60 s, twice the test's timeout: only the abort can settle it in time.
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(calls).toBe(1);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('1')).toBe(1000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 00:00:10 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
  });

  it('is the one shared reader the game connection uses too', () => {
    expect(parseRetryAfter).toBe(sharedParseRetryAfter);
  });
});
