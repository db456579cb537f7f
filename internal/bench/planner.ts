// `npm run bench -- planner`: planner mode against the pure autopilot on minimolt turbo, 1,000 ticks, 5 worlds (seeds
// 42–46), both through the real captain (SessionRunner + runAutoplay with captain memory on, the path
// `skipper --autoplay --planner` takes). The planning model is the scripted one (scripted/planner: no key); its
// tokens are chars/4 estimates of what it was sent. It names a mining loop of its own at every check-in — a seeded
// pick among the loops near the start, some better and some worse than the autopilot's — so the net-worth ratio says
// what its plans were worth. Targets: ≤ 5 model requests per 100 ticks, tick utilisation ≥ 0.95 in every run,
// net-worth gain ≥ 80% of the pure autopilot's on the same worlds. A planner that always names the worst-paying loop
// (worstPlans) misses the last one.
import { createAutopilotProvider } from '../provider/builtin/index.js';
import { CAPITALS } from '../sim/index.js';
import { playCaptain, type CaptainResult } from './captain.js';
import { ScriptedPlanner } from './planner-model.js';
import { benchWorld, miningLoops, seededPlans, type MiningLoop, type PlanChooser } from './planner-plans.js';
import { median, per100Ticks } from './score.js';
import type { BenchFigure } from './types.js';

export interface PlannerBenchOptions {
  runs?: number;
  ticks?: number;
  worldSeed?: number;
  /** The plans the scripted planner proposes on a world (default: a seeded pick among the loops near the start). */
  plans?: (loops: MiningLoop[], seed: number) => PlanChooser;
}

interface PlannedRun {
  pure: CaptainResult;
  planned: CaptainResult;
  /** Check-ins at which the planner named a loop of its own (resource, station, system). */
  named: number;
  /** Distinct loops it named. */
  distinct: number;
}

const gain = (run: CaptainResult): number => run.netWorthEnd - run.netWorthStart;

const START_SYSTEM = CAPITALS.find((capital) => capital.empire === 'solarian')?.systemId ?? 'sol';

async function playWorld(seed: number, ticks: number, options: PlannerBenchOptions): Promise<PlannedRun> {
  const pure = await playCaptain({ provider: createAutopilotProvider({ seed }), scenario: 'grind', seed, ticks });
  const loops = miningLoops(benchWorld(seed), START_SYSTEM);
  const model = new ScriptedPlanner({ plans: (options.plans ?? seededPlans)(loops, seed) });
  const planned = await playCaptain({
    provider: model,
    planner: { flier: createAutopilotProvider({ seed }) },
    label: 'scripted/planner + planner',
    scenario: 'grind',
    seed,
    ticks,
  });
  const distinct = new Set(model.proposed.map((plan) => `${plan.resource}@${plan.sell_at}`)).size;
  return { pure, planned, named: model.proposed.length, distinct };
}

export async function benchPlanner(options: PlannerBenchOptions = {}): Promise<BenchFigure[]> {
  const runs = options.runs ?? 5;
  const ticks = options.ticks ?? 1000;
  const worldSeed = options.worldSeed ?? 42;
  const played: PlannedRun[] = [];
  for (let run = 0; run < runs; run += 1) played.push(await playWorld(worldSeed + run, ticks, options));
  return plannerFigures(played, { runs, ticks });
}

/** The gain of a planned run over the pure autopilot's on the same world (0 when the autopilot gained nothing). */
export function gainRatio(run: { pure: CaptainResult; planned: CaptainResult }): number {
  return gain(run.pure) > 0 ? gain(run.planned) / gain(run.pure) : 0;
}

function perRunNote(played: PlannedRun[]): string {
  return played
    .map(
      ({ planned: run, pure, named, distinct }) =>
        `seed ${run.seed}: ${run.modelRequests} requests (${Object.entries(run.planner?.reasons ?? {})
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}), ${named} plans named (${distinct} loops), ` +
        `gain ${gain(run)} vs ${gain(pure)} (${gainRatio({ pure, planned: run }).toFixed(2)}×), ` +
        `util ${((run.tickUtilisation ?? 0) * 100).toFixed(1)}%`,
    )
    .join('; ');
}

function plannerFigures(played: PlannedRun[], at: { runs: number; ticks: number }): BenchFigure[] {
  const planned = played.map((run) => run.planned);
  const requests = planned.map((run) => per100Ticks(run.modelRequests, run.ticks));
  const tokens = planned.map((run) => per100Ticks(run.usage.promptTokens + run.usage.completionTokens, run.ticks));
  const ratios = played.map(gainRatio);
  const utilisation = planned.map((run) => run.tickUtilisation ?? 0);
  const named = played.reduce((sum, run) => sum + run.named, 0);
  const wakes = planned.reduce((sum, run) => sum + (run.planner?.wakes ?? 0), 0);
  return [
    {
      part: 'planner',
      name: 'planner: model requests per 100 ticks (worst run)',
      value: Math.max(...requests),
      unit: 'req',
      target: 5,
      better: 'lower',
      note: perRunNote(played),
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
      note: `${at.ticks} ticks × ${at.runs} worlds; tokens are chars/4 of every request the scripted planner was sent (memory on)`,
    },
    {
      part: 'planner',
      name: 'planner: plans naming a loop of their own',
      value: named,
      unit: 'plans',
      better: 'higher',
      note: `${named} plans over ${wakes} wakes, each naming a resource, a station and a system; a named loop may happen to be the one the autopilot would have flown`,
    },
  ];
}
