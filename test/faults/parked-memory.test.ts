// Fault group — a parked captain's memory stays flat (issue 48). A real `skipper fleet` process, one autopilot captain
// on a `skipper serve`, parked by `skipper fleet park` and left parked (short form 60 s, full form 10 minutes), measured
// by internal/bench/parked.ts (the fleet bench's parked figure is the same run): the objects the process made while
// parked and still holds at the end (three heap snapshots), its heap after GC every 2 s, and no MaxListeners warning
// (the old parked pause left one abort listener a look, a look a second: the warning after ~11 s, ~52 MB a day).
import { describe, expect, it } from 'vitest';
import { retainedText } from '../../internal/bench/heap-retained.js';
import { measureParkedMemory } from '../../internal/bench/parked.js';
import { tempHomes } from '../fakes/cli-process.js';
import { faultMode } from './harness.js';

const newHome = tempHomes();
const PARKED_MS = faultMode() === 'short' ? 60_000 : 600_000;
const KB = 1024;

describe('faults: parked captain memory', () => {
  it(
    `a captain parked for ${PARKED_MS / 1000} s holds none of what it made while parked`,
    async ({ task }) => {
      task.meta.faultGroup = 'parked captain memory';
      const run = await measureParkedMemory({ parkedMs: PARKED_MS, dir: newHome() });
      task.meta.faultLine =
        `parked captain memory: ${PARKED_MS / 1000} s parked, kept ${retainedText(run.retained)} of what it made ` +
        `over ${(run.retainedSpanMs / 1000).toFixed(0)} s; heap after GC ${run.heapFirstMb.toFixed(2)} → ` +
        `${run.heapLastMb.toFixed(2)} MB (slope ${run.slopeKbPerMin.toFixed(1)} KB/min, last half ` +
        `${run.lateSlopeKbPerMin.toFixed(1)}; V8's compiled code +${run.codeGrowthKb.toFixed(0)} KB), rss ` +
        `${run.rssMinMb.toFixed(0)}–${run.rssMaxMb.toFixed(0)} MB before the snapshots, ${run.samples} samples`;
      expect(run.stateAtEnd).toBe('parked');
      expect(run.maxListenersWarning).toBe(false);
      // The bounds. What a parked fleet made after the first snapshot and still held at the last, measured on
      // 2026-11-29 (2 cores): 25 objects, 4.9 KB over 2.6 minutes — a WeakMap's table rehashed, V8's allocation-site
      // boilerplates, strings its compiled code holds. The leak the issue describes keeps an abort listener (a closure,
      // its context, the listener's record) a look, a look a second: ≥ 3 objects a second, ≥ 150 over the short form's
      // span and ≥ 800 over the full form's; a 64 KB buffer kept a look passes 32 KB within a second.
      expect(run.retained.count, retainedText(run.retained)).toBeLessThan(100);
      expect(run.retained.bytes, retainedText(run.retained)).toBeLessThan(32 * KB);
      // The heap after GC, as a second view: over the short form it grows by what V8 compiles as the parked loop gets
      // hot (+30–60 KB in the first minute); a retained 64 KB a look grows it by megabytes (measured: +2.2 MB).
      expect((run.heapLastMb - run.heapFirstMb) * 1024).toBeLessThan(1024);
    },
    PARKED_MS + 240_000,
  );
});
