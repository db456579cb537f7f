// Fault group — a parked captain's memory stays flat (issue 48). A real `skipper fleet` process, one autopilot captain
// on a `skipper serve`, parked by `skipper fleet park` and left parked (short form 60 s, full form 10 minutes). A
// preload in the fleet process collects the garbage every 2 s and writes the heap then (and the RSS) to a file; the
// heap over the parked span must not grow, and stderr must carry no MaxListenersExceededWarning (the old parked pause
// left one abort listener a look, a look a second: the warning after ~11 s, ~52 MB a day).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';
import { faultMode, preloadModule, stopChild, until } from './harness.js';

const newHome = tempHomes();
const PARKED_MS = faultMode() === 'short' ? 60_000 : 600_000;
/** The first samples after the park are left out: what the captain's last turn left is still being let go. */
const SETTLE_MS = 10_000;
const SAMPLE_MS = 2_000;
const KB = 1024;

interface Sample {
  at: number;
  heap: number;
  rss: number;
}

function samples(path: string): Sample[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => /^\d+ \d+ \d+$/.test(line))
    .map((line) => {
      const [at, heap, rss] = line.split(' ').map(Number) as [number, number, number];
      return { at, heap, rss };
    });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The least-squares slope of the heap over time, in bytes per minute. */
function slopePerMinute(points: Sample[]): number {
  const meanAt = points.reduce((sum, point) => sum + point.at, 0) / points.length;
  const meanHeap = points.reduce((sum, point) => sum + point.heap, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const point of points) {
    covariance += (point.at - meanAt) * (point.heap - meanHeap);
    variance += (point.at - meanAt) ** 2;
  }
  return variance === 0 ? 0 : (covariance / variance) * 60_000;
}

async function captainState(home: string): Promise<string | undefined> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    return (await store.fleets.captain('parked', 'sleeper'))?.state;
  } finally {
    await store.close();
  }
}

describe('faults: parked captain memory', () => {
  it(
    `a captain parked for ${PARKED_MS / 1000} s keeps its fleet's heap flat`,
    async ({ task }) => {
      task.meta.faultGroup = 'parked captain memory';
      const home = newHome();
      // The world runs in a `skipper serve` of its own: what the fleet process holds is the captain's, not the world's.
      const server = runCli(['serve', '--port', '0', '--tick-ms', '200'], { home: newHome() });
      const [, url, code] = await server.waitFor(/ --game (http:\/\/\S+\/mcp\/v2) --registration-code (\S+)/);
      const file = join(home, 'parked.yaml');
      writeFileSync(
        file,
        ['name: parked', 'defaults:', `  game: ${url}`, '  registration_code_env: FAULTS_CODE', '  max_ticks: 1000000']
          .concat(['captains:', '  - name: sleeper', ''])
          .join('\n'),
      );
      const memory = join(home, 'memory.log');
      const sampler = preloadModule(
        home,
        'memory-sampler.mjs',
        "import { appendFileSync } from 'node:fs';\n" +
          `setInterval(() => {\n  globalThis.gc();\n  const { heapUsed, rss } = process.memoryUsage();\n` +
          `  appendFileSync(${JSON.stringify(memory)}, \`\${Date.now()} \${heapUsed} \${rss}\\n\`);\n}, ${SAMPLE_MS}).unref();\n`,
      );
      const fleet = runCli(['fleet', file], {
        home,
        env: { NODE_OPTIONS: `--expose-gc --import=${sampler}`, FAULTS_CODE: code! },
      });
      try {
        await fleet.waitFor(/sleeper\s+started session/, { timeoutMs: 60_000 });
        const park = runCli(['fleet', 'park', 'sleeper'], { home });
        expect((await park.exited).code, park.stderr()).toBe(0);
        expect(await until(async () => (await captainState(home)) === 'parked', 30_000, 250)).toBe(true);
        const parkedAt = Date.now();
        const from = parkedAt + SETTLE_MS;
        const to = parkedAt + PARKED_MS;
        // The span is observed, not asserted: the wait ends when the sampler has written past its end.
        const spanned = await until(() => samples(memory).some((one) => one.at >= to), PARKED_MS + 60_000, 1_000);
        expect(spanned, `the sampler stopped writing: ${fleet.stderr().slice(-300)}`).toBe(true);
        expect(await captainState(home)).toBe('parked');
        const span = samples(memory).filter((one) => one.at >= from && one.at <= to);
        const third = Math.floor(span.length / 3);
        const first = median(span.slice(0, third).map((one) => one.heap));
        const last = median(span.slice(-third).map((one) => one.heap));
        const slope = slopePerMinute(span);
        const lateSlope = slopePerMinute(span.slice(Math.floor(span.length / 2)));
        const rss = span.map((one) => one.rss);
        task.meta.faultLine =
          `parked captain memory: ${PARKED_MS / 1000} s parked, heap ${(first / KB / KB).toFixed(2)} → ` +
          `${(last / KB / KB).toFixed(2)} MB (median of first and last third, after GC), slope ` +
          `${(slope / KB).toFixed(1)} KB/min (last half ${(lateSlope / KB).toFixed(1)}), rss ${(Math.min(...rss) / KB / KB).toFixed(0)}–` +
          `${(Math.max(...rss) / KB / KB).toFixed(0)} MB, ${span.length} samples`;
        expect(third).toBeGreaterThanOrEqual(5);
        expect(fleet.stderr()).not.toMatch(/MaxListenersExceededWarning/);
        // The bounds. The listener a look the issue describes leaked ~52 MB a day: 0.6 KB/s, 36 KB/min, linear; measured
        // here with that bug put back, the 60 s slope rose from 64–99 KB/min to 110 KB/min, and Node warned of
        // MaxListeners within ~11 s. In 50 s of span that rate cannot be told from the first minutes' settling (V8's code
        // and feedback for the look's path: +30–60 KB in the first minute), so the short form bounds the growth at 1 MB
        // (a leak of ≥ 30 KB/s, e.g. a retained 64 KB a look, fails: measured +2.2 MB) and counts on the MaxListeners
        // warning above for that bug. The full form asks the slope over the last half of its 10 minutes, past the
        // settling, to stay under half the rate, 18 KB/min: that leak would give ≥ 36 KB/min there. The one full
        // run so far (2026-11-29, 2 cores) gave 28.8 KB/min there (40.3 over the span): the full form fails today, an
        // open finding (issue 48), not a bound to widen.
        expect(last - first).toBeLessThan(1024 * KB);
        if (faultMode() === 'full') expect(lateSlope / KB).toBeLessThan(18);
      } finally {
        await stopChild(fleet, 'SIGINT');
        await stopChild(server, 'SIGINT');
      }
    },
    PARKED_MS + 180_000,
  );
});
