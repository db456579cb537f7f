// `npm run bench -- planner`: planner mode against the pure autopilot on minimolt turbo, 1,000 ticks, 5 worlds (seeds
// 42–46), both through the real captain (SessionRunner + runAutoplay with captain memory on, the path
// `skipper --autoplay --planner` takes). The planning model is the scripted one (scripted/planner: no key); its
// tokens are chars/4 estimates of what it was sent. Targets (issue 17): ≤ 5 model requests per 100 ticks, tick
// utilisation ≥ 0.95 in every run, net-worth gain ≥ 80% of the pure autopilot's on the same worlds.
import { createAutopilotProvider } from '../provider/builtin/index.js';
import { playCaptain, type CaptainResult } from './captain.js';
import { ScriptedPlanner } from './planner-model.js';
import { median, per100Ticks } from './score.js';
import type { BenchFigure } from './types.js';

export interface PlannerBenchOptions {
  runs?: number;
  ticks?: number;
  worldSeed?: number;
}

const gain = (run: CaptainResult): number => run.netWorthEnd - run.netWorthStart;

export async function benchPlanner(options: PlannerBenchOptions = {}): Promise<BenchFigure[]> {
  const runs = options.runs ?? 5;
  const ticks = options.ticks ?? 1000;
  const worldSeed = options.worldSeed ?? 42;
  const pure: CaptainResult[] = [];
  const planned: CaptainResult[] = [];
  for (let run = 0; run < runs; run += 1) {
    const seed = worldSeed + run;
    pure.push(await playCaptain({ provider: createAutopilotProvider({ seed }), scenario: 'grind', seed, ticks }));
    planned.push(
      await playCaptain({
        provider: new ScriptedPlanner(),
        planner: { flier: createAutopilotProvider({ seed }) },
        label: 'scripted/planner + planner',
        scenario: 'grind',
        seed,
        ticks,
      }),
    );
  }
  const requests = planned.map((run) => per100Ticks(run.modelRequests, run.ticks));
  const tokens = planned.map((run) => per100Ticks(run.usage.promptTokens + run.usage.completionTokens, run.ticks));
  const ratios = planned.map((run, index) =>
    gain(pure[index] as CaptainResult) > 0 ? gain(run) / gain(pure[index] as CaptainResult) : 0,
  );
  const utilisation = planned.map((run) => run.tickUtilisation ?? 0);
  const perRun = planned
    .map(
      (run, index) =>
        `seed ${run.seed}: ${run.modelRequests} requests (${Object.entries(run.planner?.reasons ?? {})
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}), ` +
        `gain ${gain(run)} vs ${gain(pure[index] as CaptainResult)}, util ${((run.tickUtilisation ?? 0) * 100).toFixed(1)}%`,
    )
    .join('; ');
  return [
    {
      part: 'planner',
      name: 'planner: model requests per 100 ticks (worst run)',
      value: Math.max(...requests),
      unit: 'req',
      target: 5,
      better: 'lower',
      note: perRun,
    },
    {
      part: 'planner',
      name: 'planner: tick utilisation (worst run)',
      value: Math.min(...utilisation),
      unit: '',
      target: 0.95,
      better: 'higher',
    },
    {
      part: 'planner',
      name: 'planner: net-worth gain ÷ pure autopilot (worst world)',
      value: Math.min(...ratios),
      unit: '×',
      target: 0.8,
      better: 'higher',
    },
    {
      part: 'planner',
      name: 'planner: net-worth gain ÷ pure autopilot (median)',
      value: median(ratios),
      unit: '×',
      better: 'higher',
    },
    {
      part: 'planner',
      name: 'planner: model tokens per 100 ticks (median, estimated)',
      value: median(tokens),
      unit: 'tok',
      better: 'lower',
      note: `${ticks} ticks × ${runs} worlds; tokens are chars/4 of every request the scripted planner was sent (memory on)`,
    },
  ];
}
