// `skipper bench`: every model (the baselines builtin/random and builtin/autopilot always among them) plays every
// chosen scenario R times, each run on a fresh world with the same seed across models; results scored and written as
// JSON and a Markdown table.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Provider } from '../shared/index.js';
import type { Store } from '../store/index.js';
import { playCaptain, type CaptainResult, TRADE_CAPITAL, SCENARIO_GOALS } from './captain.js';
import { benchResultsJson } from './json.js';
import { ScriptedPlanner } from './planner-model.js';
import {
  alignedTable,
  benchTableCells,
  markdownTable,
  OUTCOME_UNITS,
  scoreRuns,
  type Scenario,
  type ScoreRow,
} from './score.js';

export const BASELINES = ['builtin/random', 'builtin/autopilot'] as const;

export interface BenchOptions {
  scenarios: Scenario[];
  /** Models besides the baselines (duplicates of a baseline are dropped). */
  models: string[];
  ticks: number;
  seed: number;
  runs: number;
  /** Makes the provider for a model id and a run's seed. */
  makeProvider: (model: string, seed: number) => Provider;
  /** Planner rows too: each language model planning for the autopilot, and the scripted planning model. */
  planner?: boolean;
  /** Keeps every run's session here (so `skipper report NAME --home DIR` can show it). */
  store?: Store;
  signal?: AbortSignal;
  onRunEnd?: (result: CaptainResult) => void;
}

export interface BenchResults {
  /** 2 since results.json and --json write every field in snake_case (1 wrote them in camelCase). */
  version: 2;
  startedAt: string;
  seed: number;
  ticks: number;
  runs: number;
  scenarios: Scenario[];
  models: string[];
  notes: string[];
  results: CaptainResult[];
  /** Runs that could not be played (a model that refused the key, an endpoint that is down); the model is skipped after. */
  failures: Array<{ model: string; scenario: Scenario; seed: number; error: string }>;
  scores: ScoreRow[];
  /** `skipper bench --suite standard`: the suite's name, version and what it fixes. */
  suite?: { name: string; version: number; scenario: string; seed: number; runs: number; ticks: number };
  /** Where a suite's results were made (Node, platform, CPUs, memory). */
  machine?: Record<string, string | number>;
}

export function benchModels(models: readonly string[]): string[] {
  return [...new Set([...BASELINES, ...models])];
}

export const SCRIPTED_PLANNER = 'scripted/planner';

/** A bench row: who plays it and how (planner rows: the model plans, the autopilot flies). */
export interface BenchEntry {
  label: string;
  model: string;
  planner: boolean;
}

export function benchEntries(models: readonly string[], planner: boolean): BenchEntry[] {
  const plain = benchModels(models).map((model) => ({ label: model, model, planner: false }));
  if (!planner) return plain;
  const planners = [...benchModels(models).filter((model) => !model.startsWith('builtin/')), SCRIPTED_PLANNER];
  return [...plain, ...[...new Set(planners)].map((model) => ({ label: `${model} + planner`, model, planner: true }))];
}

export async function runBench(options: BenchOptions): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const entries = benchEntries(options.models, options.planner === true);
  const models = entries.map((entry) => entry.label);
  const results: CaptainResult[] = [];
  const failures: BenchResults['failures'] = [];
  for (const scenario of options.scenarios) {
    for (let run = 0; run < options.runs; run += 1) {
      // Run r plays world seed S + r for every model: models meet the same worlds.
      const seed = options.seed + run;
      for (const { label: model, model: id, planner } of entries) {
        if (options.signal?.aborted) break;
        if (failures.some((failure) => failure.model === model)) continue;
        const stamp = startedAt.replace(/[-:]/g, '').replace(/\..*$/, '').toLowerCase();
        let result: CaptainResult;
        try {
          result = await playCaptain({
            provider: id === SCRIPTED_PLANNER ? new ScriptedPlanner() : options.makeProvider(id, seed),
            label: model,
            ...(planner ? { planner: { flier: options.makeProvider('builtin/autopilot', seed) } } : {}),
            scenario,
            seed,
            ticks: options.ticks,
            ...(options.store
              ? { store: options.store, sessionName: `bench-${stamp}-${scenario}-${slug(model)}-${run + 1}` }
              : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          });
        } catch (error) {
          // One model's dead endpoint must not throw away the runs already played.
          failures.push({ model, scenario, seed, error: error instanceof Error ? error.message : String(error) });
          continue;
        }
        results.push(result);
        options.onRunEnd?.(result);
      }
    }
  }
  return {
    version: 2,
    startedAt,
    seed: options.seed,
    ticks: options.ticks,
    runs: options.runs,
    scenarios: options.scenarios,
    models,
    notes: [
      ...options.scenarios.map(
        (scenario) =>
          `${scenario}: ${OUTCOME_UNITS[scenario]}; goal "${SCENARIO_GOALS[scenario]}"` +
          (scenario === 'trade' ? `; the account starts with ${TRADE_CAPITAL} credits` : ''),
      ),
      ...(options.planner
        ? [
            `"+ planner" rows: the model sets plans (set_plan) when woken and the autopilot flies them every tick. ${SCRIPTED_PLANNER} ` +
              "is a fixed script (no key, no cost) that asks for the autopilot's own mining or exploring loop; its tokens are " +
              'chars/4 estimates of what it was sent.',
          ]
        : []),
    ],
    results,
    failures,
    scores: scoreRuns(results),
  };
}

function slug(model: string): string {
  return model
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
}

function settingsLines(results: BenchResults): string[] {
  return [
    `Seed ${results.seed} (run r plays world seed ${results.seed} + r), ${results.ticks} ticks per run, ${results.runs} run(s) per model.`,
    'Outcome is the median over runs; counts, tokens and cost are totals over runs; wall time is per run.',
  ];
}

function noteLines(results: BenchResults): string[] {
  return [
    ...results.notes.map((note) => `- ${note}`),
    ...results.failures.map(
      (failure) => `- NOT SCORED: ${failure.model} on ${failure.scenario} (seed ${failure.seed}): ${failure.error}`,
    ),
  ];
}

/** Every run with its session, the name `skipper report NAME --home OUT_DIR` takes. */
function runsCells(results: BenchResults): { header: string[]; body: string[][] } {
  return {
    header: ['scenario', 'model', 'seed', 'ticks', 'net worth', 'session'],
    body: results.results.map((run) => [
      run.scenario,
      run.model,
      String(run.seed),
      String(run.ticks),
      `${run.netWorthStart} → ${run.netWorthEnd}`,
      run.sessionName,
    ]),
  };
}

/** The Markdown report: settings, the table, what each outcome means, then every run's session. */
export function benchMarkdown(results: BenchResults): string {
  const runs = runsCells(results);
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [
    `# skipper bench — ${results.startedAt}`,
    '',
    ...settingsLines(results),
    '',
    ...markdownTable(results.scores),
    '',
    ...noteLines(results),
    '',
    '## Runs',
    '',
    'Each run is a stored session: `skipper report SESSION --home DIR` shows one, DIR being the folder of this file.',
    '',
    line(runs.header),
    line(runs.header.map((_, index) => (index === 2 || index === 3 ? '---:' : '---'))),
    ...runs.body.map((cells) => line(cells.map((cell, column) => (column === 5 ? `\`${cell}\`` : cell)))),
    '',
  ].join('\n');
}

/** The same report for a terminal: the tables padded into columns, not Markdown; `out` is where the sessions are. */
export function benchText(results: BenchResults, options: { out?: string } = {}): string {
  const scores = benchTableCells(results.scores);
  const runs = runsCells(results);
  return [
    `skipper bench — ${results.startedAt}`,
    ...settingsLines(results),
    '',
    ...alignedTable(scores.header, scores.body),
    '',
    ...noteLines(results),
    '',
    `Runs (each a session: skipper report SESSION --home ${options.out ?? 'OUT_DIR'}):`,
    ...alignedTable(runs.header, runs.body, (column) => column === 2 || column === 3).map((row) => `  ${row}`),
    '',
  ].join('\n');
}

/** Writes results.json (snake_case, as `skipper bench --json` prints it) and results.md into `dir`; returns their paths. */
export function writeBenchFiles(dir: string, results: BenchResults): { json: string; markdown: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'results.json');
  const markdown = join(dir, 'results.md');
  writeFileSync(json, `${JSON.stringify(benchResultsJson(results), null, 2)}\n`);
  writeFileSync(markdown, benchMarkdown(results));
  return { json, markdown };
}
