// `npm run bench -- soak`: thousands of autopilot turns in one session on a turbo world, through the path
// `skipper --autoplay` takes (playCaptain: setUpSession + runAutoplay, the SessionRunner, the history window real
// play uses, every message committed to a SQLite file in WAL mode), twice: with captain memory on (the memory block
// every turn, an episode written every turn, so memory keeps growing until pruning) and with it off. Figures: peak RSS
// while it runs, and whether per-turn time drifts — median ms of the first tenth of the turns against the last tenth.
// The store is a SQLite file in a temp dir, as in real play (an in-memory database would count the whole transcript
// twice in RSS). Each row runs in a child process of its own, so the peak RSS is that soak's alone.
import { figuresFromChild } from './child.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAutopilotProvider } from '../provider/builtin/index.js';
import { HISTORY_WINDOW } from '../session/index.js';
import { openStore } from '../store/index.js';
import { playCaptain } from './captain.js';
import { median } from './score.js';
import type { BenchFigure } from './types.js';

/** Turns per row: the two rows together take about what one 10,000-turn row did. */
export const SOAK_TURNS = 5_000;

export interface SoakOptions {
  turns?: number;
  /** Turns in each of the first/last windows compared (default turns / 10). */
  window?: number;
  /** Captain memory on (an episode per turn, the memory block every turn), as in real play. Default on. */
  memory?: boolean;
}

/** `npm run bench -- soak`: the soak with captain memory on, then off, each in a fresh child process (./soak-child.js). */
export async function benchSoak(options: { turns?: number } = {}): Promise<BenchFigure[]> {
  const turns = String(options.turns ?? SOAK_TURNS);
  const on = await figuresFromChild(new URL('./soak-child.js', import.meta.url), [turns, '--memory']);
  const off = await figuresFromChild(new URL('./soak-child.js', import.meta.url), [turns]);
  return [...on, ...off];
}

/** The soak itself, in this process. */
export async function runSoak(options: SoakOptions = {}): Promise<BenchFigure[]> {
  const turns = options.turns ?? SOAK_TURNS;
  const memory = options.memory !== false;
  const row = `memory ${memory ? 'on' : 'off'}`;
  const window = options.window ?? Math.max(1, Math.floor(turns / 10));
  const durations: number[] = [];
  const rssStart = process.memoryUsage.rss();
  let rssPeak = rssStart;
  const dir = mkdtempSync(join(tmpdir(), 'skipper-soak-'));
  const store = await openStore({ path: join(dir, 'skipper.db') });
  const cpuFrom = process.cpuUsage();
  const result = await playCaptain({
    store,
    provider: createAutopilotProvider({ seed: 42 }),
    scenario: 'grind',
    seed: 42,
    // Turns, not ticks, end this run.
    ticks: Number.MAX_SAFE_INTEGER,
    maxTurns: turns,
    memory,
    onTurnEnd: (_turn, ms) => {
      durations.push(ms);
      // Sampled every 25 turns (reading RSS costs ~0.5 ms); maxRSS at the end catches any peak in between.
      if (durations.length % 25 !== 0) return;
      const rss = process.memoryUsage.rss();
      if (rss > rssPeak) rssPeak = rss;
    },
  }).finally(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const cpu = process.cpuUsage(cpuFrom);
  const cpuPerAction = (cpu.user + cpu.system) / 1000 / Math.max(1, result.actions);
  const first = median(durations.slice(0, window));
  const last = median(durations.slice(-window));
  const drift = first > 0 ? last / first : 0;
  const mb = (bytes: number): number => bytes / 1024 / 1024;
  // maxRSS (KiB) covers this whole process: in the child that is module loading plus the soak.
  rssPeak = Math.max(rssPeak, process.resourceUsage().maxRSS * 1024);
  return [
    {
      part: 'soak',
      name: `autopilot turns played, ${row}`,
      value: durations.length,
      unit: 'turns',
      target: turns,
      better: 'higher',
      note:
        `captain ${row}; setUpSession + runAutoplay as \`skipper --autoplay\`, SQLite file store (WAL), history window ` +
        `${HISTORY_WINDOW} messages; ${result.ticks} ticks, ${result.actions} actions, ${(result.wallMs / 1000).toFixed(0)} s, ` +
        `${cpuPerAction.toFixed(2)} CPU ms per action (embedded minimolt included), net worth ${result.netWorthStart} → ${result.netWorthEnd}, deaths ${result.deaths}, leaks ${result.leaks}, stop: ${result.stopReason.text}`,
    },
    {
      part: 'soak',
      name: `peak RSS during the soak, ${row}`,
      value: mb(rssPeak),
      unit: 'MB',
      target: 512,
      better: 'lower',
      note: `RSS ${mb(rssStart).toFixed(0)} MB at the start of the soak`,
    },
    { part: 'soak', name: `median turn, first ${window} turns, ${row}`, value: first, unit: 'ms', better: 'lower' },
    { part: 'soak', name: `median turn, last ${window} turns, ${row}`, value: last, unit: 'ms', better: 'lower' },
    {
      part: 'soak',
      name: `per-turn drift (last ÷ first), ${row}`,
      value: drift,
      unit: '×',
      target: 1.5,
      better: 'lower',
      note:
        `one session all along: the store keeps every message (the SQLite file grows), memory keeps the last ` +
        `${HISTORY_WINDOW}–${HISTORY_WINDOW + Math.ceil(HISTORY_WINDOW / 4)} messages (trimmed at turn starts)` +
        (memory
          ? ', captain memory gains an episode a turn (pruned past its cap) and ranks them all for the block every turn'
          : '') +
        '; drift above 1.5× means a turn gets slower as the session ages',
    },
  ];
}
