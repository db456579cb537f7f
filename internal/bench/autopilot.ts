// `npm run bench -- autopilot`: the built-in autopilot against the random floor on minimolt turbo, 2,000 ticks, 5 runs
// each, both through the real captain (SessionRunner + runAutoplay, the path `skipper --autoplay` takes): net-worth
// gain per 100 ticks, median. Target: autopilot ≥ 10× random and positive in every run. Run r plays world seed 42 + r
// (provider seed the same): the autopilot is deterministic, so five runs on one world would be one run five times.
import { createAutopilotProvider, createRandomProvider } from '../provider/builtin/index.js';
import type { Provider } from '../shared/index.js';
import { playCaptain, type CaptainResult } from './captain.js';
import { median, runOutcome } from './score.js';
import type { BenchFigure } from './types.js';

export interface AutopilotBenchOptions {
  runs?: number;
  ticks?: number;
  worldSeed?: number;
}

async function play(provider: Provider, ticks: number, worldSeed: number): Promise<CaptainResult> {
  // Captain memory off: the built-in policies ignore it, and it would only hand the random floor more tools to miss
  // with (and cost time the whole `npm run bench` does not have; memory has its own part).
  return playCaptain({ provider, scenario: 'grind', seed: worldSeed, ticks, memory: false });
}

function describe(list: readonly CaptainResult[]): string {
  return list
    .map(
      (r) =>
        `seed ${r.seed}: ${runOutcome(r).toFixed(0)}/100t over ${r.ticks}t (${r.turns} turns, util ${((r.tickUtilisation ?? 0) * 100).toFixed(0)}%, ` +
        `deaths ${r.deaths}, leaks ${r.leaks}, ${(r.wallMs / 1000).toFixed(1)} s)`,
    )
    .join('; ');
}

export async function benchAutopilot(options: AutopilotBenchOptions = {}): Promise<BenchFigure[]> {
  const runs = options.runs ?? 5;
  const ticks = options.ticks ?? 2000;
  const worldSeed = options.worldSeed ?? 42;
  const autopilot: CaptainResult[] = [];
  const random: CaptainResult[] = [];
  for (let run = 0; run < runs; run += 1) {
    autopilot.push(await play(createAutopilotProvider({ seed: worldSeed + run }), ticks, worldSeed + run));
    random.push(await play(createRandomProvider({ seed: worldSeed + run }), ticks, worldSeed + run));
  }
  const autoMedian = median(autopilot.map(runOutcome));
  const randomMedian = median(random.map(runOutcome));
  const worst = Math.min(...autopilot.map(runOutcome));
  // A random floor at or below zero makes any positive autopilot "infinitely" better; say so rather than divide.
  const ratio = randomMedian > 0 ? autoMedian / randomMedian : autoMedian > 0 ? Infinity : 0;
  return [
    {
      part: 'autopilot',
      name: 'autopilot net-worth gain per 100 ticks (median)',
      value: autoMedian,
      unit: 'cr',
      better: 'higher',
      note: describe(autopilot),
    },
    {
      part: 'autopilot',
      name: 'random net-worth gain per 100 ticks (median)',
      value: randomMedian,
      unit: 'cr',
      better: 'higher',
      note: describe(random),
    },
    { part: 'autopilot', name: 'autopilot / random', value: ratio, unit: '×', target: 10, better: 'higher' },
    {
      part: 'autopilot',
      name: 'autopilot runs with a positive gain',
      value: autopilot.filter((r) => runOutcome(r) > 0).length,
      unit: `of ${runs}`,
      target: runs,
      better: 'higher',
      note: `worst run ${worst.toFixed(0)} cr per 100 ticks`,
    },
  ];
}
