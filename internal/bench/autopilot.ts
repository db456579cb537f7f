// `npm run bench -- autopilot`: the built-in autopilot against the random floor on minimolt turbo (world seed 42),
// 2,000 ticks, 5 runs each (provider seeds 42..46): net-worth gain per 100 ticks, median. Target: autopilot ≥ 10×
// random and positive in every run. Driven by the provider test loop (test/fakes/sim-game.ts) until the lead wires
// the real agent loop in.
import { createAutopilotProvider, createRandomProvider } from '../provider/builtin/index.js';
import type { Provider } from '../shared/index.js';
import { createMinimolt } from '../sim/index.js';
import { SimGame, TestSession, playTurn } from '../../test/fakes/sim-game.js';
import type { BenchFigure } from './types.js';

const STARTER_CREDITS = 150;

export interface AutopilotRun {
  ticks: number;
  turns: number;
  netWorthStart: number;
  netWorthEnd: number;
  /** (end − start) / ticks × 100. */
  gainPer100Ticks: number;
  utilisation: number;
  deaths: number;
  leaks: number;
  errors: Record<string, number>;
  ms: number;
}

/**
 * One run: a fresh turbo world, one provider, turns until `ticks` game ticks have passed (or `maxTurns`); a turn that
 * advanced no tick is charged one.
 */
export async function runProvider(options: {
  provider: Provider;
  ticks: number;
  maxTurns: number;
  worldSeed?: number;
}): Promise<AutopilotRun> {
  const started = Date.now();
  const minimolt = await createMinimolt({ tickMs: 0, worldDb: ':memory:', seed: options.worldSeed ?? 42 });
  const game = await SimGame.connect(await minimolt.connect());
  try {
    const session = new TestSession();
    let turns = 0;
    // Both providers register as solarians: the 150 starter credits are not a gain.
    const start = { tick: minimolt.tick, netWorth: STARTER_CREDITS };
    while (turns < options.maxTurns && minimolt.tick - start.tick < options.ticks) {
      turns += 1;
      const before = minimolt.tick;
      await playTurn({ provider: options.provider, game, session, prompt: `Autoplay turn ${turns}. Goal: earn credits.` });
      // Turbo only ticks when an action is queued; in real play a turn that queued nothing still costs game time.
      // Charging it one tick keeps a stuck or idle captain from stopping the clock its gain is measured against.
      if (minimolt.tick === before) minimolt.engine.processTick();
    }
    const me = minimolt.stats().players[0];
    const ticks = minimolt.tick - start.tick;
    const netWorthEnd = me?.net_worth ?? STARTER_CREDITS;
    const netWorthStart = start.netWorth;
    return {
      ticks,
      turns,
      netWorthStart,
      netWorthEnd,
      gainPer100Ticks: ticks > 0 ? ((netWorthEnd - netWorthStart) / ticks) * 100 : 0,
      utilisation: me && me.ticks_alive > 0 ? me.busy_ticks / me.ticks_alive : 0,
      deaths: me?.deaths ?? 0,
      leaks: me?.leaks ?? 0,
      errors: me?.errors ?? {},
      ms: Date.now() - started,
    };
  } finally {
    await game.close();
    await minimolt.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export async function benchAutopilot(options: { runs?: number; ticks?: number; randomMaxTurns?: number } = {}): Promise<BenchFigure[]> {
  const runs = options.runs ?? 5;
  const ticks = options.ticks ?? 2000;
  const autopilot: AutopilotRun[] = [];
  const random: AutopilotRun[] = [];
  for (let run = 0; run < runs; run += 1) {
    autopilot.push(await runProvider({ provider: createAutopilotProvider({ seed: 42 + run }), ticks, maxTurns: ticks * 2 }));
    random.push(await runProvider({ provider: createRandomProvider({ seed: 42 + run }), ticks,
      maxTurns: options.randomMaxTurns ?? 100_000 }));
  }
  const autoMedian = median(autopilot.map((r) => r.gainPer100Ticks));
  const randomMedian = median(random.map((r) => r.gainPer100Ticks));
  const worst = Math.min(...autopilot.map((r) => r.gainPer100Ticks));
  const positive = autopilot.filter((r) => r.gainPer100Ticks > 0).length;
  const ratio = randomMedian > 0 ? autoMedian / randomMedian : Infinity;
  const describe = (list: AutopilotRun[]): string =>
    list.map((r) => `${r.gainPer100Ticks.toFixed(0)}/100t over ${r.ticks}t (${r.turns} turns, util ${(r.utilisation * 100).toFixed(0)}%, deaths ${r.deaths}, leaks ${r.leaks}, ${(r.ms / 1000).toFixed(1)} s)`).join('; ');
  return [
    { part: 'autopilot', name: 'autopilot net-worth gain per 100 ticks (median)', value: autoMedian, unit: 'cr', better: 'higher',
      note: describe(autopilot) },
    { part: 'autopilot', name: 'random net-worth gain per 100 ticks (median)', value: randomMedian, unit: 'cr', better: 'higher',
      note: describe(random) },
    { part: 'autopilot', name: 'autopilot / random', value: ratio, unit: '×', target: 10, better: 'higher' },
    { part: 'autopilot', name: 'autopilot runs with a positive gain', value: positive, unit: `of ${runs}`, target: runs, better: 'higher',
      note: `worst run ${worst.toFixed(0)} cr per 100 ticks; world seed 42 and turbo make every autopilot run identical (the seed only changes its username and call ids)` },
  ];
}
