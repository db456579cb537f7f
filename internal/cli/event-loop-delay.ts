// How late the process's event loop ran over a whole run, as `skipper fleet --json` reports it in its fleet-end
// event (`event_loop_delay_ms`): fifty captains share one loop, so a store or a planner that blocks it delays every
// captain's next call. perf_hooks' histogram times a 10 ms timer; what it records is the whole interval, so the
// resolution is taken off each figure: 0 means the loop was never late.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Milliseconds late, beyond the resolution: the median, the 99th percentile and the worst. */
export interface EventLoopDelay {
  p50: number;
  p99: number;
  max: number;
}

const RESOLUTION_MS = 10;

/** The histogram's nanosecond intervals as milliseconds late (never below 0), to 0.1 ms. */
export function eventLoopDelayOf(
  histogram: Pick<IntervalHistogram, 'percentile' | 'max' | 'count'>,
  resolutionMs = RESOLUTION_MS,
): EventLoopDelay {
  const late = (ns: number): number =>
    histogram.count === 0 ? 0 : Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 10) / 10);
  return { p50: late(histogram.percentile(50)), p99: late(histogram.percentile(99)), max: late(histogram.max) };
}

/** Starts timing the loop; `read` says how late it has run so far, `stop` ends the timer. */
export function watchEventLoopDelay(): { read: () => EventLoopDelay; stop: () => void } {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  return { read: () => eventLoopDelayOf(histogram), stop: () => histogram.disable() };
}
