// The fleet-end event's event_loop_delay_ms: the histogram's intervals less its 10 ms resolution, and a loop held
// busy seen as late by the watch the fleet process starts.
import { describe, expect, it } from 'vitest';
import { eventLoopDelayOf, watchEventLoopDelay } from '../../../internal/cli/event-loop-delay.js';

/** A histogram that recorded the given intervals (ns), as perf_hooks reports them. */
function histogram(percentiles: Record<number, number>, max: number, count = 100) {
  return { percentile: (p: number) => percentiles[p] ?? NaN, max, count };
}

describe('eventLoopDelayOf', () => {
  it('takes the resolution off each figure, in ms to 0.1', () => {
    expect(eventLoopDelayOf(histogram({ 50: 10_130_000, 99: 24_560_000 }, 81_720_000))).toEqual({
      p50: 0.1,
      p99: 14.6,
      max: 71.7,
    });
  });

  it('never says less than 0 (a timer that fired a little early)', () => {
    expect(eventLoopDelayOf(histogram({ 50: 9_990_000, 99: 9_999_000 }, 10_000_000))).toEqual({
      p50: 0,
      p99: 0,
      max: 0,
    });
  });

  it('says 0 for a histogram that recorded nothing (perf_hooks reports huge numbers then)', () => {
    expect(eventLoopDelayOf(histogram({ 50: 0, 99: 0 }, 0, 0))).toEqual({ p50: 0, p99: 0, max: 0 });
  });
});

describe('watchEventLoopDelay', () => {
  it('sees a loop held busy for 80 ms as late by about that much at worst', async () => {
    const watch = watchEventLoopDelay();
    try {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const until = performance.now() + 80;
      while (performance.now() < until); // the loop held, as a synchronous store call would
      // The watch's timer, due during the busy spell, fires before this later one.
      await new Promise((resolve) => setTimeout(resolve, 15));
      const delay = watch.read();
      expect(delay.max).toBeGreaterThanOrEqual(60);
      expect(delay.p50).toBeLessThan(delay.max);
    } finally {
      watch.stop();
    }
  });
});
