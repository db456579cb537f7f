// Scoring of `skipper bench`: outcome per 100 ticks first, then tool accuracy, invalid calls, deaths, leaks, tokens,
// cost and USD per 1,000 credits gained; each model as a ratio to the autopilot. Pure functions over run results.
import { creditsPer1kTokens, type Usage } from '../shared/index.js';
import { estimate, intervalSeed, pairedDifference, type PairedDifference } from './stats.js';

export const SCENARIOS = ['grind', 'trade', 'explore'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** Calls the captain got wrong on its own: bad arguments, bad JSON, tools that do not exist. SpaceMolt's faces answer
 * an unknown parameter or an unknown v2 action (v2's "tool that does not exist") with invalid_payload. */
export const INVALID_CODES: readonly string[] = [
  'invalid_params',
  'invalid_payload',
  'invalid_arguments',
  'unknown_tool',
];

export const OUTCOME_UNITS: Record<Scenario, string> = {
  grind: 'net-worth gain / 100 ticks',
  trade: 'net-worth gain / 100 ticks',
  explore: 'new systems / 100 ticks',
};

export function invalidCallCount(errorsByCode: Record<string, number>): number {
  return INVALID_CODES.reduce((sum, code) => sum + (errorsByCode[code] ?? 0), 0);
}

/** `value` scaled to 100 ticks; 0 when no tick passed (nothing was achieved in no time). */
export function per100Ticks(value: number, ticks: number): number {
  return ticks > 0 ? (value / ticks) * 100 : 0;
}

/** Successful ÷ attempted; null when nothing was attempted (no accuracy to speak of). */
export function toolAccuracy(successful: number, attempted: number): number | null {
  return attempted > 0 ? successful / attempted : null;
}

/** USD spent per 1,000 credits gained; null when nothing was gained (the cost buys no credits at any price). */
export function usdPer1000Credits(costUsd: number, creditsGained: number): number | null {
  return creditsGained > 0 ? (costUsd / creditsGained) * 1000 : null;
}

/** score ÷ baseline; null when the baseline is not positive (a ratio to nothing says nothing). */
export function ratioTo(score: number, baseline: number | null | undefined): number | null {
  return baseline !== null && baseline !== undefined && baseline > 0 ? score / baseline : null;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The figures one run contributes to a score (a subset of CaptainResult, so tests can build them by hand). */
export interface RunFigures {
  scenario: Scenario;
  model: string;
  /** The world's seed: runs of two models on the same seed are a pair (runs without one pair by their order). */
  seed?: number;
  ticks: number;
  netWorthStart: number;
  netWorthEnd: number;
  systemsBeforeDeath: number;
  deaths: number;
  leaks: number;
  toolCalls: number;
  successfulCalls: number;
  invalidCalls: number;
  usage: Usage;
  wallMs: number;
  tickUtilisation: number | null;
  /** Requests to a language model (0 for the built-in captains). */
  modelRequests?: number;
}

/** The scenario's outcome figure of one run, per 100 ticks. */
export function runOutcome(run: RunFigures): number {
  const raw = run.scenario === 'explore' ? run.systemsBeforeDeath : run.netWorthEnd - run.netWorthStart;
  return per100Ticks(raw, run.ticks);
}

export interface ScoreRow {
  scenario: Scenario;
  model: string;
  runs: number;
  /** Median over runs of the outcome per 100 ticks. */
  outcomePer100Ticks: number;
  /** The outcome per 100 ticks over runs: mean, spread, bootstrap 95 % interval of the mean, and n (the runs). */
  mean: number | null;
  sd: number | null;
  ci95_low: number | null;
  ci95_high: number | null;
  n: number;
  /** This model − the autopilot on the same seeds (null on the autopilot's own row, or without it). */
  diff_vs_baseline: PairedDifference | null;
  /** outcome ÷ the autopilot's outcome in the same scenario; null when the autopilot's is not positive. */
  ratioToAutopilot: number | null;
  toolAccuracy: number | null;
  /** Totals over the runs. */
  invalidCalls: number;
  deaths: number;
  leaks: number;
  tokens: number;
  /** Of the tokens, the prompt tokens the provider served from its cache. */
  cachedPromptTokens: number;
  costUsd: number;
  netWorthChange: number;
  usdPer1000Credits: number | null;
  /** Beside the cost (the names every --json writes): credits gained per 1,000 tokens, USD per 1,000 credits. */
  creditsPer1kTokens: number | null;
  usdPer1kCredits: number | null;
  /** Mean per run. */
  wallMs: number;
  ticks: number;
  tickUtilisation: number | null;
  /** Model requests and tokens per 100 ticks (totals over the runs ÷ their ticks). */
  modelRequestsPer100Ticks: number;
  tokensPer100Ticks: number;
}

/** What every model's score is compared with: the autopilot, on the same seeds. */
export const BASELINE = 'builtin/autopilot';

export function scoreRuns(runs: readonly RunFigures[]): ScoreRow[] {
  const groups = new Map<string, RunFigures[]>();
  for (const run of runs) {
    const key = `${run.scenario}\u0000${run.model}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const rows: ScoreRow[] = [];
  for (const group of groups.values()) {
    const first = group[0] as RunFigures;
    const sum = (read: (run: RunFigures) => number): number => group.reduce((total, run) => total + read(run), 0);
    const attempted = sum((run) => run.toolCalls);
    const gain = sum((run) => run.netWorthEnd - run.netWorthStart);
    const cost = sum((run) => run.usage.costUsd);
    const utilisations = group.map((run) => run.tickUtilisation).filter((value): value is number => value !== null);
    const tokens = sum((run) => run.usage.promptTokens + run.usage.completionTokens);
    rows.push({
      scenario: first.scenario,
      model: first.model,
      runs: group.length,
      outcomePer100Ticks: median(group.map(runOutcome)),
      ...estimate(group.map(runOutcome), intervalSeed(`${first.scenario}/${first.model}`)),
      diff_vs_baseline: null,
      ratioToAutopilot: null,
      toolAccuracy: toolAccuracy(
        sum((run) => run.successfulCalls),
        attempted,
      ),
      invalidCalls: sum((run) => run.invalidCalls),
      deaths: sum((run) => run.deaths),
      leaks: sum((run) => run.leaks),
      tokens,
      cachedPromptTokens: sum((run) => run.usage.cachedTokens),
      costUsd: cost,
      netWorthChange: gain,
      usdPer1000Credits: usdPer1000Credits(cost, gain),
      creditsPer1kTokens: creditsPer1kTokens(gain, tokens),
      usdPer1kCredits: usdPer1000Credits(cost, gain),
      wallMs: sum((run) => run.wallMs) / group.length,
      ticks: sum((run) => run.ticks) / group.length,
      tickUtilisation: utilisations.length > 0 ? utilisations.reduce((a, b) => a + b, 0) / utilisations.length : null,
      modelRequestsPer100Ticks: per100Ticks(
        sum((run) => run.modelRequests ?? 0),
        sum((run) => run.ticks),
      ),
      tokensPer100Ticks: per100Ticks(
        sum((run) => run.usage.promptTokens + run.usage.completionTokens),
        sum((run) => run.ticks),
      ),
    });
  }
  const outcomesBySeed = (key: string): Map<number, number> =>
    new Map((groups.get(key) ?? []).map((run, index) => [run.seed ?? index, runOutcome(run)]));
  for (const row of rows) {
    const autopilot = rows.find((other) => other.scenario === row.scenario && other.model === BASELINE);
    row.ratioToAutopilot = ratioTo(row.outcomePer100Ticks, autopilot?.outcomePer100Ticks);
    if (autopilot && row !== autopilot)
      row.diff_vs_baseline = pairedDifference(
        outcomesBySeed(`${row.scenario}\u0000${row.model}`),
        outcomesBySeed(`${row.scenario}\u0000${BASELINE}`),
        intervalSeed(`${row.scenario}/${row.model}-${BASELINE}`),
      );
  }
  // Scenario order, then best outcome first.
  return rows.sort(
    (a, b) =>
      SCENARIOS.indexOf(a.scenario) - SCENARIOS.indexOf(b.scenario) || b.outcomePer100Ticks - a.outcomePer100Ticks,
  );
}

/** Two decimals, or two significant digits for small ratios (a floor at 0.0016× is not "0.00×"). */
export function formatRatio(value: number): string {
  return value === 0 || Math.abs(value) >= 0.1 ? value.toFixed(2) : value.toPrecision(2);
}

const fixed = (value: number | null, digits: number, suffix = ''): string =>
  value === null ? 'n/a' : `${value.toFixed(digits)}${suffix}`;

/** "[low, high]", or "n/a" when the interval is not defined (fewer than two runs). */
function intervalText(low: number | null, high: number | null): string {
  return low === null || high === null ? 'n/a' : `[${low.toFixed(1)}, ${high.toFixed(1)}]`;
}

/** The bench table's header and cells: one row per scenario and model (Markdown in results.md, aligned on a terminal). */
export function benchTableCells(rows: readonly ScoreRow[]): { header: string[]; body: string[][] } {
  const header = [
    'scenario',
    'model',
    'outcome / 100 ticks',
    '× autopilot',
    'mean ± sd',
    '95% CI',
    'n',
    'Δ autopilot [95% CI]',
    'tool accuracy',
    'invalid',
    'deaths',
    'leaks',
    'tokens',
    'model req / 100 ticks',
    'tokens / 100 ticks',
    'cached tokens',
    'cost USD',
    'USD / 1k cr',
    'cr / 1k tokens',
    'wall s',
    'tick util',
  ];
  const body = rows.map((row) => [
    row.scenario,
    row.model,
    `${row.outcomePer100Ticks.toFixed(row.scenario === 'explore' ? 2 : 1)}`,
    row.ratioToAutopilot === null ? 'n/a' : `${formatRatio(row.ratioToAutopilot)}×`,
    row.mean === null ? 'n/a' : `${row.mean.toFixed(1)} ± ${fixed(row.sd, 1)}`,
    intervalText(row.ci95_low, row.ci95_high),
    String(row.n),
    row.diff_vs_baseline === null
      ? '—'
      : `${fixed(row.diff_vs_baseline.mean, 1)} ${intervalText(row.diff_vs_baseline.ci95_low, row.diff_vs_baseline.ci95_high)}`,
    row.toolAccuracy === null ? 'n/a' : `${(row.toolAccuracy * 100).toFixed(1)}%`,
    String(row.invalidCalls),
    String(row.deaths),
    String(row.leaks),
    String(row.tokens),
    row.modelRequestsPer100Ticks.toFixed(1),
    row.tokensPer100Ticks.toFixed(0),
    String(row.cachedPromptTokens),
    row.costUsd.toFixed(4),
    fixed(row.usdPer1000Credits, 4),
    fixed(row.creditsPer1kTokens, 1),
    (row.wallMs / 1000).toFixed(1),
    row.tickUtilisation === null ? 'n/a' : `${(row.tickUtilisation * 100).toFixed(0)}%`,
  ]);
  return { header, body };
}

/** The Markdown table of a bench: one row per scenario and model. */
export function markdownTable(rows: readonly ScoreRow[]): string[] {
  const { header, body } = benchTableCells(rows);
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map((title, index) => (index < 2 ? '---' : '---:'))), ...body.map(line)];
}

/**
 * Columns padded to their widest cell, for a terminal: names left-aligned, figures right-aligned (by default every
 * column after the first two), two spaces apart, a rule under the header.
 */
export function alignedTable(
  header: readonly string[],
  body: readonly string[][],
  rightAligned: (column: number) => boolean = (column) => column >= 2,
): string[] {
  const widths = header.map((title, column) =>
    Math.max([...title].length, ...body.map((row) => [...(row[column] ?? '')].length)),
  );
  const pad = (cell: string, column: number): string => {
    const gap = ' '.repeat(Math.max(0, (widths[column] ?? 0) - [...cell].length));
    return rightAligned(column) ? gap + cell : cell + gap;
  };
  const line = (cells: readonly string[]): string => cells.map(pad).join('  ').trimEnd();
  return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...body.map(line)];
}
