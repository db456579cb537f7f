// A parked captain's memory (issue 48: "a parked captain holds no growing state"), measured on a real `skipper fleet`
// process as a person runs it: one autopilot captain on a `skipper serve` of its own (0.2 s ticks), parked by
// `skipper fleet park` once its session started, then left parked for the span. A preload in the fleet process
// collects the garbage every 2 s and writes the heap then, the RSS and V8's code and bytecode size; on SIGUSR2 it
// writes a heap snapshot. Three snapshots (after a settling time, halfway, at the end) say how the process's data grew
// in each half (heap-growth.ts): the last half's growth is the figure for "no growing state" (the first holds the
// one-time things of a long run, such as the first time the game's standing event stream is opened again); the heap's
// slope is given beside it, with how much of the growth is V8 compiling the parked loop's code as it gets hot.
// Used by `npm run bench -- fleet` (10 minutes, beside the fleet run) and the fault suite's `parked captain memory`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../store/index.js';
import { dataByKind, growthBetween, growthText, type HeapGrowth } from './heap-growth.js';
import { BENCH_CODE, benchCli, exited, withServe } from './serve-process.js';
import type { BenchFigure } from './types.js';

const SAMPLE_MS = 2_000;
/** The first heap samples after the park are left out of the slopes: what the last turn left is still being let go. */
const SLOPE_SETTLE_MS = 10_000;
const MB = 1024 * 1024;
/** How long a step may take before the run fails (a session's start, the park, a snapshot): a machine running two test
 * suites beside it is slow. */
const START_WAIT_MS = 120_000;

export interface ParkedMemory {
  parkedMs: number;
  /** Median heap after GC over the first and the last third of the span. */
  heapFirstMb: number;
  heapLastMb: number;
  /** Least-squares slope of the heap after GC over the span, and over its last half (KB a minute). */
  slopeKbPerMin: number;
  lateSlopeKbPerMin: number;
  /** Of the heap's growth over the span, V8's compiled code and bytecode (KB). */
  codeGrowthKb: number;
  /** Before the first heap snapshot (writing one swells it). */
  rssMinMb: number;
  rssMaxMb: number;
  samples: number;
  /** How its data grew from the first snapshot to the second, and from the second to the last. */
  firstHalf: HeapGrowth;
  lastHalf: HeapGrowth;
  /** From the second snapshot to the last. */
  lastHalfMs: number;
  /** The captain's state as stored when the span ended. */
  stateAtEnd: string | undefined;
  /** Node warned of too many listeners on one emitter (the old parked pause's leak). */
  maxListenersWarning: boolean;
}

interface Sample {
  at: number;
  heap: number;
  rss: number;
  code: number;
}

function samplerSource(memoryLog: string, snapshotLog: string, snapshotDir: string): string {
  return [
    "import { appendFileSync } from 'node:fs';",
    "import { getHeapCodeStatistics, writeHeapSnapshot } from 'node:v8';",
    'setInterval(() => {',
    '  globalThis.gc();',
    '  const { heapUsed, rss } = process.memoryUsage();',
    '  const code = getHeapCodeStatistics();',
    '  const compiled = code.code_and_metadata_size + code.bytecode_and_metadata_size;',
    `  appendFileSync(${JSON.stringify(memoryLog)}, \`\${Date.now()} \${heapUsed} \${rss} \${compiled}\\n\`);`,
    `}, ${SAMPLE_MS}).unref();`,
    "process.on('SIGUSR2', () => {",
    `  const path = writeHeapSnapshot(${JSON.stringify(snapshotDir)} + '/parked-' + Date.now() + '.heapsnapshot');`,
    `  appendFileSync(${JSON.stringify(snapshotLog)}, path + '\\n');`,
    '});',
    '',
  ].join('\n');
}

function samples(path: string): Sample[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => /^\d+ \d+ \d+ \d+$/.test(line))
    .map((line) => {
      const [at, heap, rss, code] = line.split(' ').map(Number) as [number, number, number, number];
      return { at, heap, rss, code };
    });
}

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The least-squares slope of the heap over time, in bytes a minute. */
export function slopePerMinute(points: ReadonlyArray<{ at: number; heap: number }>): number {
  if (points.length < 2) return 0;
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

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, everyMs));
  }
  return await check();
}

const sleepUntil = (at: number): Promise<void> => new Promise((done) => setTimeout(done, Math.max(0, at - Date.now())));

async function captainState(home: string): Promise<string | undefined> {
  const store = await openStore({ path: join(home, 'skipper.db'), readonly: true });
  try {
    return (await store.fleets.captain('parked', 'sleeper'))?.state;
  } finally {
    await store.close();
  }
}

function cliProcess(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [benchCli, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-200_000); // a parked fleet says little: its warnings stay in
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = exited(child);
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await gone;
  clearTimeout(timer);
}

/** Waits for the fleet's captain to start its session, then parks it by order and waits until it is parked. */
async function parkOnceStarted(
  fleet: ReturnType<typeof cliProcess>,
  env: { SKIPPER_HOME: string; BENCH_FLEET_CODE: string },
  fail: (what: string) => Error,
): Promise<void> {
  const started = (): boolean => /sleeper\s+started session/.test(fleet.output()) || fleet.child.exitCode !== null;
  if (!(await until(started, START_WAIT_MS)))
    throw fail(`the captain did not start its session within ${START_WAIT_MS / 1000} s`);
  if (fleet.child.exitCode !== null) throw fail(`skipper fleet exited ${fleet.child.exitCode}`);
  const park = cliProcess(['fleet', 'park', 'sleeper'], env);
  const parkCode = await exited(park.child);
  if (parkCode !== 0) throw fail(`skipper fleet park exited ${parkCode}: ${park.output()}`);
  if (!(await until(async () => (await captainState(env.SKIPPER_HOME)) === 'parked', START_WAIT_MS)))
    throw fail(`the captain was not parked within ${START_WAIT_MS / 1000} s of the order`);
}

/** Parks a fleet's one captain for `parkedMs` and measures what its process holds (see the file's head). */
export async function measureParkedMemory(options: { parkedMs: number; dir: string }): Promise<ParkedMemory> {
  const { dir, parkedMs } = options;
  const home = join(dir, 'parked-home');
  mkdirSync(home, { recursive: true });
  const memoryLog = join(dir, 'memory.log');
  const snapshotLog = join(dir, 'snapshots.log');
  const preload = join(dir, 'memory-sampler.mjs');
  writeFileSync(preload, samplerSource(memoryLog, snapshotLog, dir));
  return withServe({ home: join(dir, 'parked-serve-home'), tickMs: 200 }, async (serve) => {
    const file = join(home, 'parked.yaml');
    writeFileSync(
      file,
      ['name: parked', 'defaults:', `  game: ${serve.url}`, '  registration_code_env: BENCH_FLEET_CODE']
        .concat(['  max_ticks: 1000000', 'captains:', '  - name: sleeper', ''])
        .join('\n'),
    );
    const env = { SKIPPER_HOME: home, BENCH_FLEET_CODE: BENCH_CODE };
    const fleet = cliProcess(['fleet', file], { ...env, NODE_OPTIONS: `--expose-gc --import=${preload}` });
    const fleetGone = exited(fleet.child);
    try {
      const fail = (what: string): Error => new Error(`parked memory: ${what}: ${fleet.output().slice(-400)}`);
      await parkOnceStarted(fleet, env, fail);
      const parkedAt = Date.now();
      // The snapshots: after a settling time (a quarter of the span, at most a minute), halfway, at the end.
      const firstAt = parkedAt + Math.min(60_000, parkedMs / 4);
      const endAt = parkedAt + parkedMs;
      for (const [index, at] of [firstAt, (firstAt + endAt) / 2, endAt].entries()) {
        await sleepUntil(at);
        if (fleet.child.exitCode !== null) throw fail(`skipper fleet exited ${fleet.child.exitCode} while parked`);
        fleet.child.kill('SIGUSR2');
        if (!(await until(() => lines(snapshotLog).length > index, START_WAIT_MS)))
          throw fail(`no heap snapshot was written within ${START_WAIT_MS / 1000} s of asking`);
      }
      // The sampler writes past the span's end before it is read.
      await until(() => samples(memoryLog).some((sample) => sample.at >= endAt), 2 * SAMPLE_MS + 5_000);
      const stateAtEnd = await captainState(home);
      const [first, second, last] = lines(snapshotLog) as [string, string, string];
      // One snapshot read at a time (each is ~27 MB of JSON).
      const [a, b, c] = [dataByKind(first), dataByKind(second), dataByKind(last)];
      const stamp = (path: string): number => Number(/parked-(\d+)\./.exec(path)?.[1]);
      const span = samples(memoryLog).filter((one) => one.at >= parkedAt + SLOPE_SETTLE_MS && one.at <= endAt);
      if (span.length < 3) throw fail(`only ${span.length} heap samples over the span`);
      const third = Math.floor(span.length / 3);
      const heapFirst = median(span.slice(0, third).map((one) => one.heap));
      const heapLast = median(span.slice(-third).map((one) => one.heap));
      // A heap snapshot swells the RSS while it is written: the RSS is read before the first one.
      const before = samples(memoryLog).filter((one) => one.at >= parkedAt && one.at < firstAt);
      const rss = (before.length > 0 ? before : span).map((one) => one.rss);
      return {
        parkedMs,
        heapFirstMb: heapFirst / MB,
        heapLastMb: heapLast / MB,
        slopeKbPerMin: slopePerMinute(span) / 1024,
        lateSlopeKbPerMin: slopePerMinute(span.slice(Math.floor(span.length / 2))) / 1024,
        codeGrowthKb:
          (median(span.slice(-third).map((one) => one.code)) - median(span.slice(0, third).map((one) => one.code))) /
          1024,
        rssMinMb: Math.min(...rss) / MB,
        rssMaxMb: Math.max(...rss) / MB,
        samples: span.length,
        firstHalf: growthBetween(a, b),
        lastHalf: growthBetween(b, c),
        lastHalfMs: stamp(last) - stamp(second),
        stateAtEnd,
        maxListenersWarning: /MaxListenersExceededWarning/.test(fleet.output()),
      };
    } finally {
      await stop(fleet.child);
      await fleetGone;
      for (const path of lines(snapshotLog)) rmSync(path, { force: true });
    }
  });
}

/** How much a parked captain's process may grow over the last half of its span (the figure's target): "no growing
 * state". The leak the issue describes grew 36 KB a minute. */
export const PARKED_GROWTH_TARGET_KB = 16;

/** The fleet bench's parked figure: skipped (BENCH_FLEET_PARKED_S=0), failed (NaN with why), or measured. */
export function parkedFigure(parked: ParkedMemory | { skipped: string } | { failed: string }): BenchFigure {
  const figure = {
    part: 'fleet',
    name: 'fleet: parked captain: data heap growth, last half',
    unit: 'KB',
    target: PARKED_GROWTH_TARGET_KB,
    better: 'lower' as const,
  };
  if ('skipped' in parked) return { ...figure, value: NaN, skipped: parked.skipped };
  if ('failed' in parked) return { ...figure, value: NaN, note: `the parked run failed: ${parked.failed}` };
  return {
    ...figure,
    value: parked.lastHalf.bytes / 1024,
    note:
      `one captain parked ${(parked.parkedMs / 60_000).toFixed(1)} min in a fleet process of its own; its data ` +
      `(three heap snapshots, V8's code left out) grew ${growthText(parked.lastHalf)} over the last ` +
      `${(parked.lastHalfMs / 60_000).toFixed(1)} min, ${growthText(parked.firstHalf)} over the half before; heap after GC ${parked.heapFirstMb.toFixed(2)} → ${parked.heapLastMb.toFixed(2)} MB ` +
      `(slope ${parked.slopeKbPerMin.toFixed(1)} KB/min, last half ${parked.lateSlopeKbPerMin.toFixed(1)}, of which ` +
      `V8's compiled code +${parked.codeGrowthKb.toFixed(0)} KB over the span), rss ${parked.rssMinMb.toFixed(0)}–` +
      `${parked.rssMaxMb.toFixed(0)} MB; state at the end: ${parked.stateAtEnd ?? 'unknown'}` +
      (parked.maxListenersWarning ? '; Node warned of too many listeners' : ''),
  };
}
