// internal/bench: benchmark scenarios and reports — the headless bench captain, `skipper bench` runs and scoring.
// (`npm run bench` is run.ts, a script with its own entry point; its parts are not exported here.)
export { playCaptain, SCENARIO_GOALS, TRADE_CAPITAL, type CaptainOptions, type CaptainResult } from './captain.js';
export {
  runBench,
  benchModels,
  benchEntries,
  SCRIPTED_PLANNER,
  benchMarkdown,
  benchText,
  writeBenchFiles,
  BASELINES,
  type BenchOptions,
  type BenchResults,
} from './bench.js';
export { benchResultsJson, snakeCaseKeys, type BenchResultsJson, type SnakeCased } from './json.js';
export {
  SCENARIOS,
  INVALID_CODES,
  OUTCOME_UNITS,
  invalidCallCount,
  per100Ticks,
  toolAccuracy,
  usdPer1000Credits,
  ratioTo,
  median,
  runOutcome,
  scoreRuns,
  markdownTable,
  alignedTable,
  benchTableCells,
  formatRatio,
  type Scenario,
  type RunFigures,
  type ScoreRow,
} from './score.js';
export {
  estimate,
  pairedDifference,
  bootstrapInterval,
  intervalSeed,
  BOOTSTRAP_RESAMPLES,
  type Estimate,
  type PairedDifference,
} from './stats.js';
