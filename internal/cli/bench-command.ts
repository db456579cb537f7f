// `skipper bench`: outcome benchmarks on fresh turbo minimolt worlds — every given model next to the baselines
// builtin/random and builtin/autopilot, same seeds; writes results.json, results.md and the runs' sessions
// (skipper.db, readable by `skipper report NAME --home DIR`), prints the table.
import { commandFrom, BENCH } from './commands.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import {
  benchResultsJson,
  benchModels,
  benchText,
  runBench,
  SCENARIOS,
  writeBenchFiles,
  type BenchResults,
  type CaptainResult,
  type Scenario,
} from '../bench/index.js';
import { createProvider, resolveModel, type ModelConfig } from '../provider/index.js';
import os from 'node:os';
import { ExitCode, UsageError, type Provider } from '../shared/index.js';
import { createRedactor, openStore, urlCredentials, type Store } from '../store/index.js';
import { resolveHome } from './config.js';
import { integerFlag } from './flags.js';

export interface BenchCommandDeps {
  /** The environment (API keys, SKIPPER_HOME), read when the command runs. */
  env: () => Record<string, string | undefined>;
  /** Opens (creates) the store that keeps the runs' sessions; default: SQLite at DIR/skipper.db. */
  openStore?: (path: string) => Promise<Store>;
}

interface BenchFlags {
  suite?: string;
  scenario: string;
  model?: string[] | string;
  ticks: number;
  seed?: number | string;
  runs: number;
  json?: boolean;
  out?: string;
  home?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  price?: string;
  planner?: boolean;
}

export function parseScenarios(value: string): Scenario[] {
  if (value === 'all') return [...SCENARIOS];
  const wanted = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = wanted.filter((part) => !(SCENARIOS as readonly string[]).includes(part));
  if (wanted.length === 0 || unknown.length > 0) {
    throw new UsageError(`unknown scenario "${unknown.join(', ') || value}": use grind, trade, explore or all`);
  }
  return [...new Set(wanted)] as Scenario[];
}

/** Provider factory for a bench: built-ins seeded per run, remote models resolved once (keys checked up front). */
export function benchProviderFactory(
  flags: Pick<BenchFlags, 'baseUrl' | 'apiKeyEnv' | 'price'>,
  env: Record<string, string | undefined>,
): (model: string, seed: number) => Provider {
  return (model, seed) => createProvider(benchModelConfig(flags, env, model), { seed });
}

function benchModelConfig(
  flags: Pick<BenchFlags, 'baseUrl' | 'apiKeyEnv' | 'price'>,
  env: Record<string, string | undefined>,
  model: string,
): ModelConfig {
  return resolveModel(
    {
      model,
      ...(flags.baseUrl && !model.startsWith('builtin/') ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.apiKeyEnv ? { apiKeyEnv: flags.apiKeyEnv } : {}),
      ...(flags.price ? { price: flags.price } : {}),
    },
    env,
  );
}

/**
 * What the bench's models are called with (their API keys, credentials in --base-url): redacted before anything is
 * stored in the bench's own store, as live play redacts at write (issue 30).
 */
export function benchSecrets(
  flags: Pick<BenchFlags, 'baseUrl' | 'apiKeyEnv' | 'price'>,
  env: Record<string, string | undefined>,
  models: readonly string[],
): string[] {
  const secrets = urlCredentials(flags.baseUrl);
  for (const model of models) {
    const config = benchModelConfig(flags, env, model);
    if ('apiKey' in config && config.apiKey) secrets.push(config.apiKey);
  }
  return secrets;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, ...modelList(value)];

export function modelList(value: string | string[] | undefined): string[] {
  const parts = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((entry) =>
    entry.split(','),
  );
  return parts.map((part) => part.trim()).filter(Boolean);
}

export function registerBenchCommand(program: Command, deps: BenchCommandDeps): void {
  commandFrom(program, BENCH)
    .addOption(
      new Option(
        '--suite <name>',
        `a fixed, versioned set others can reproduce: standard (v${STANDARD_SUITE.version}: every scenario, seeds ${STANDARD_SUITE.seed}–${STANDARD_SUITE.seed + STANDARD_SUITE.runs - 1}, ${STANDARD_SUITE.ticks} ticks)`,
      ).choices(['standard']),
    )
    .addOption(new Option('--scenario <name>', 'grind, trade, explore, a comma list, or all').default('grind'))
    .option(
      '--model <provider/model>',
      'a model to score (repeatable or comma list); the baselines always run',
      collect,
    )
    .option('--ticks <n>', 'game ticks per run', integerFlag({ min: 1, max: 1_000_000 }), 500)
    .option(
      '--seed <n>',
      'world seed of run 1 (run r plays seed + r - 1, the same for every model; default 42)',
      integerFlag(),
    )
    .option('--runs <n>', 'runs per model and scenario', integerFlag({ min: 1, max: 1000 }), 1)
    .option('--planner', 'also planner rows: each model (and a scripted planning model) sets plans the autopilot flies')
    .option('--json', 'print the results JSON instead of the table')
    .option(
      '--out <dir>',
      'where to write results.json, results.md and skipper.db (default $SKIPPER_HOME/bench/<time>)',
    )
    .addOption(new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)'))
    .option('--base-url <url>', 'OpenAI-compatible endpoint of the --model (required for custom/MODEL)')
    .option('--api-key-env <NAME>', 'environment variable holding the API key of the --model')
    .option('--price <in,out[,cached]>', 'USD per million input,output[,cached prompt] tokens of the --model')
    .addHelpText(
      'after',
      `
Examples:
  $ skipper bench                                         baselines only, grind, 500 ticks
  $ OPENAI_API_KEY=… skipper bench --model openai/gpt-4o-mini --scenario all --ticks 300 --runs 3
  $ skipper bench --planner --ticks 1000                  planner mode (scripted model) beside the autopilot
  $ skipper bench --suite standard --model openai/gpt-4o-mini   the standard suite: a results.json to compare
  $ skipper report <session name from results.md> --home <out dir>   one run (its name is in the Runs table)`,
    )
    .action(async (_options: unknown, command: Command) => {
      // Read merged: the program has --model, --seed, --json, --home, --base-url… too, and one without positional
      // options keeps them even after `bench` (--model takes a comma list, as the program keeps one value).
      await runBenchCommand(withSuite(command.optsWithGlobals<BenchFlags>(), command), deps);
    });
}

/**
 * The standard suite: fixed minimolt worlds (the seeds), scenarios, tick counts and runs, versioned, so two runs on two
 * machines compare. A change to any of them is a new version.
 */
export const STANDARD_SUITE = {
  name: 'standard',
  version: 1,
  scenario: 'all',
  seed: 1001,
  runs: 5,
  ticks: 200,
} as const;

/** `--suite standard` sets what the suite fixes; a flag that would change it is a usage error. */
function withSuite(flags: BenchFlags, command: Command): BenchFlags {
  if (flags.suite === undefined) return flags;
  const fixed = ['scenario', 'seed', 'runs', 'ticks'].filter((name) => command.getOptionValueSource(name) === 'cli');
  if (fixed.length > 0)
    throw new UsageError(
      `--suite ${flags.suite} fixes the scenarios, seeds, runs and ticks (v${STANDARD_SUITE.version}): leave out ${fixed.map((name) => `--${name}`).join(', ')}`,
    );
  const { scenario, seed, runs, ticks } = STANDARD_SUITE;
  return { ...flags, scenario, seed, runs, ticks };
}

/** What a results file says of where it was made, to compare runs of the standard suite across machines. */
function machine(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryMb: Math.round(os.totalmem() / 1024 / 1024),
  };
}

/** The flags checked and the providers resolved before the first run; where the results go. */
interface BenchPlan {
  scenarios: Scenario[];
  models: string[];
  seed: number;
  makeProvider: (model: string, seed: number) => Provider;
  out: string;
}

function planBench(flags: BenchFlags, env: Record<string, string | undefined>): BenchPlan {
  const models = modelList(flags.model);
  const seed = flags.seed === undefined ? 42 : Number(flags.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${String(flags.seed)}"`);
  const scenarios = parseScenarios(flags.scenario);
  const makeProvider = benchProviderFactory(flags, env);
  // Resolve every model before the first run: a missing API key should fail now, not after the baselines.
  for (const model of benchModels(models)) makeProvider(model, seed);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const out = flags.out ?? join(resolveHome(flags.home, env), 'bench', stamp);
  return { scenarios, models, seed, makeProvider, out };
}

/** Plans, runs (Ctrl+C stops it, exit 130), writes the files, prints the table or the JSON; exit 1 if a model failed. */
async function runBenchCommand(flags: BenchFlags, deps: BenchCommandDeps): Promise<void> {
  const plan = planBench(flags, deps.env());
  mkdirSync(plan.out, { recursive: true });
  const redact = createRedactor(benchSecrets(flags, deps.env(), benchModels(plan.models)));
  const store = await (deps.openStore ?? ((path: string) => openStore({ path, redact })))(join(plan.out, 'skipper.db'));
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  let results: BenchResults;
  try {
    results = await runBench({
      scenarios: plan.scenarios,
      models: plan.models,
      ticks: flags.ticks,
      seed: plan.seed,
      runs: flags.runs,
      makeProvider: plan.makeProvider,
      ...(flags.planner ? { planner: true } : {}),
      store,
      signal: controller.signal,
      onRunEnd: (run) => {
        if (!flags.json) process.stderr.write(runLine(run));
      },
    });
  } finally {
    process.off('SIGINT', onSignal);
    await store.close();
  }
  if (flags.suite) results = { ...results, suite: { ...STANDARD_SUITE }, machine: machine() };
  printResults(results, { out: plan.out, json: flags.json === true });
  process.exitCode = controller.signal.aborted
    ? ExitCode.interrupted
    : results.failures.length > 0
      ? ExitCode.failure
      : ExitCode.ok;
}

/** A run's progress line on stderr. */
function runLine(run: CaptainResult): string {
  return (
    `  ${run.scenario} · ${run.model} · seed ${run.seed}: ${run.ticks} ticks, ${run.turns} turns, ` +
    `net worth ${run.netWorthStart} → ${run.netWorthEnd}, ${(run.wallMs / 1000).toFixed(1)} s (${run.sessionName})\n`
  );
}

/** results.json and results.md in `out`, the table (or the JSON) on stdout, each model not scored on stderr. */
function printResults(results: BenchResults, options: { out: string; json: boolean }): void {
  const { out } = options;
  const files = writeBenchFiles(out, results);
  if (options.json) process.stdout.write(`${JSON.stringify(benchResultsJson(results))}\n`);
  else
    process.stdout.write(
      `${benchText(results, { out })}\nWrote ${files.json} and ${files.markdown}; sessions in ${join(out, 'skipper.db')}\n`,
    );
  for (const failure of results.failures) {
    process.stderr.write(
      `skipper bench: ${failure.model} was not scored (${failure.scenario}, seed ${failure.seed}): ${failure.error}\n`,
    );
  }
}
