// `npm run bench -- soak`: 10,000 autopilot turns in one process on a turbo world, one session whose history keeps
// growing (that is the point): peak RSS while it runs, and whether per-turn time drifts — median ms of the first 1,000
// turns against the last 1,000. The store is a SQLite file in a temp dir, as in real play (an in-memory database would
// count the whole transcript twice in RSS). It runs in a child process of its own, so the peak RSS is the soak's alone,
// not what the parts before it left on the heap.
import { figuresFromChild } from './child.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAutopilotProvider } from '../provider/builtin/index.js';
import { openStore } from '../store/index.js';
import { playCaptain } from './captain.js';
import { median } from './score.js';
import type { BenchFigure } from './types.js';

export interface SoakOptions {
  turns?: number;
  /** Turns in each of the first/last windows compared (default turns / 10). */
  window?: number;
  /**
   * Captain memory on (an episode per turn, the memory block every round). Default off: with it, 10,000 turns take
   * several times longer than the whole `npm run bench` budget allows (see the memory part for its own figures).
   */
  memory?: boolean;
}

/** `npm run bench -- soak`: the soak in a fresh child process (./soak-child.js), figures back over IPC. */
export async function benchSoak(options: SoakOptions = {}): Promise<BenchFigure[]> {
  const args = [String(options.turns ?? 10_000), ...(options.memory ? ['--memory'] : [])];
  return figuresFromChild(new URL('./soak-child.js', import.meta.url), args);
}

/** The soak itself, in this process. */
export async function runSoak(options: SoakOptions = {}): Promise<BenchFigure[]> {
  const turns = options.turns ?? 10_000;
  const window = options.window ?? Math.max(1, Math.floor(turns / 10));
  const durations: number[] = [];
  const rssStart = process.memoryUsage.rss();
  let rssPeak = rssStart;
  const dir = mkdtempSync(join(tmpdir(), 'skipper-soak-'));
  const store = openStore({ path: join(dir, 'skipper.db') });
  const result = await playCaptain({
    store,
    provider: createAutopilotProvider({ seed: 42 }),
    scenario: 'grind',
    seed: 42,
    // Turns, not ticks, end this run.
    ticks: Number.MAX_SAFE_INTEGER,
    maxTurns: turns,
    memory: options.memory === true,
    onTurnEnd: (_turn, ms) => {
      durations.push(ms);
      // Sampled every 25 turns (reading RSS costs ~0.5 ms); maxRSS at the end catches any peak in between.
      if (durations.length % 25 !== 0) return;
      const rss = process.memoryUsage.rss();
      if (rss > rssPeak) rssPeak = rss;
    },
  }).finally(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const first = median(durations.slice(0, window));
  const last = median(durations.slice(-window));
  const drift = first > 0 ? last / first : 0;
  const mb = (bytes: number): number => bytes / 1024 / 1024;
  // maxRSS (KiB) covers this whole process: in the child that is module loading plus the soak.
  rssPeak = Math.max(rssPeak, process.resourceUsage().maxRSS * 1024);
  return [
    { part: 'soak', name: `autopilot turns played`, value: durations.length, unit: 'turns', target: turns, better: 'higher',
      note: `captain memory ${options.memory ? 'on' : 'off'}, ${result.ticks} ticks, ${(result.wallMs / 1000).toFixed(0)} s, ` +
        `net worth ${result.netWorthStart} → ${result.netWorthEnd}, ` +
        `deaths ${result.deaths}, leaks ${result.leaks}, stop: ${result.stopReason}` },
    { part: 'soak', name: 'peak RSS during the soak', value: mb(rssPeak), unit: 'MB', target: 512, better: 'lower',
      note: `RSS ${mb(rssStart).toFixed(0)} MB at the start of the soak` },
    { part: 'soak', name: `median turn, first ${window} turns`, value: first, unit: 'ms', better: 'lower' },
    { part: 'soak', name: `median turn, last ${window} turns`, value: last, unit: 'ms', better: 'lower' },
    { part: 'soak', name: 'per-turn drift (last ÷ first)', value: drift, unit: '×', target: 1.5, better: 'lower',
      note: 'history grows all along (one session, every message kept); drift above 1.5× means a turn gets slower with history' },
  ];
}
