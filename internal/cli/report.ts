// `skipper report NAME`: an outcome report of a stored session, from the store alone — net worth and credits over
// time (plots), actions per tick, tick utilisation (the game's busy ticks when stored with the session, else
// Skipper's estimate), errors by code, tokens, cost and USD per 1,000 credits gained. Every figure is storedFigures'
// (internal/session/session-figures.ts), the one the autoplay summary, `sessions` and export show.
import { commandFrom, REPORT } from './commands.js';
import { Option, type Command } from 'commander';
import { creditsPer1kTokens, errorCodeOf, storePlaceOf, type StorePlace } from '../shared/index.js';
import type { Session, Store, UsageTotals } from '../store/index.js';
import {
  storedFigures,
  storedFiguresJson,
  type FigurePoint,
  type NetWorthPricing,
  type StoredFigures,
  type UtilisationSource,
} from '../session/index.js';
import { dbOption } from './flags.js';
import type { StoreAccess } from './home.js';
import { wantsColor } from './output.js';
import { plotLine, type PlotPoint } from './plot.js';
import { createChalk } from './render.js';
import { clipToWidth, formatCost, formatTokens, formatUsd, signed } from './text.js';
import { storedModelPriced } from '../provider/index.js';

export type ReportPoint = FigurePoint;

export interface ReportData {
  session: Pick<Session, 'name' | 'model' | 'game' | 'goal' | 'createdAt'>;
  /** The first dashboard in the transcript, then one point per turn (snapshots). */
  points: ReportPoint[];
  turns: number;
  ticks: number;
  /** Net worth and credits between the first and the last point (sessionFigures; 0 when nothing was recorded). */
  netWorthChange: number;
  creditsChange: number;
  /** Whose prices net worth counts the hold at: the game's market bids where seen, or minimolt's table alone. */
  netWorthPricing: NetWorthPricing | null;
  toolCalls: number;
  failedCalls: number;
  /** Successful tick-costing actions (mutations, as the game layer classifies each call), the whole session. */
  actions: number;
  /** Actions between the first and the last point ÷ the ticks between them. */
  actionsPerTick: number | null;
  /** Ticks the successful actions between the first and the last point took (ticksTaken). */
  actionTicks: number;
  /** The game's busy ÷ alive when stored with the session, else actionTicks ÷ ticks (Skipper's estimate). */
  tickUtilisation: number | null;
  utilisationSource: UtilisationSource | null;
  errorsByCode: Record<string, number>;
  usage: UsageTotals;
  /** false when the session's model has no known price: usage.costUsd counts its calls as 0. */
  priced: boolean;
  usdPer1000Credits: number | null;
  /** Everything above as every view measures it (storedFigures): the --json names come from it. */
  stored: StoredFigures;
}

/** The error code of a failed tool result: the one kept with it, else read from the text of older sessions. */
export { errorCodeOf };

/** Whether a stored session's cost is known: no tokens, a cost counted (the table or a --price, which is not stored,
 * knew the model), or a model the table knows. */
export function sessionPriced(
  session: { model: string; extra: Record<string, unknown> },
  usage: { promptTokens: number; completionTokens: number; costUsd: number },
): boolean {
  return (
    usage.promptTokens + usage.completionTokens === 0 ||
    usage.costUsd > 0 ||
    storedModelPriced(session.model, typeof session.extra.baseUrl === 'string' ? session.extra.baseUrl : undefined)
  );
}

export async function buildReport(store: Store, name: string): Promise<ReportData> {
  const session = await store.getSession(name);
  const stored = await storedFigures(store, session.id);
  const figures = stored.figures;
  const ticks = figures.ticks ?? 0;
  const usage = stored.usage;
  const netWorthChange = figures.netWorthChange ?? 0;
  return {
    session: {
      name: session.name,
      model: session.model,
      game: session.game,
      goal: session.goal,
      createdAt: session.createdAt,
    },
    points: stored.points,
    turns: stored.turns,
    ticks,
    netWorthChange,
    creditsChange: figures.creditsChange ?? 0,
    netWorthPricing: stored.netWorthPricing,
    toolCalls: stored.toolCalls,
    failedCalls: stored.failedCalls,
    actions: stored.actions,
    actionsPerTick: ticks > 0 ? stored.actionsInSpan / ticks : null,
    actionTicks: stored.actionTicks,
    tickUtilisation: stored.utilisation?.value ?? null,
    utilisationSource: stored.utilisation?.source ?? null,
    errorsByCode: stored.errorsByCode,
    usage,
    priced: sessionPriced(session, usage),
    usdPer1000Credits: netWorthChange > 0 ? (usage.costUsd / netWorthChange) * 1000 : null,
    stored,
  };
}

/** `skipper report NAME --json`: the report under the names `sessions --json` and the autoplay summary use. */
export function reportJson(data: ReportData): Record<string, unknown> {
  return {
    name: data.session.name,
    game: data.session.game,
    model: data.session.model,
    goal: data.session.goal,
    created_at: new Date(data.session.createdAt).toISOString(),
    // The figures every view writes (a session with no game state says null, not 0).
    ...storedFiguresJson(data.stored, { priced: data.priced }),
    tool_calls: data.toolCalls,
    failed_calls: data.failedCalls,
    actions: data.actions,
    actions_per_tick: data.actionsPerTick,
    action_ticks: data.actionTicks,
    errors_by_code: data.errorsByCode,
    cached_tokens: data.usage.cachedTokens,
    model_calls: data.usage.calls,
    priced: data.priced,
    usd_per_1000_credits: data.usdPer1000Credits,
    points: data.points.map((point) => ({
      turn: point.turn,
      tick: point.tick,
      credits: point.credits,
      net_worth: point.netWorth,
    })),
  };
}

/** The ticks, or why they are not known (the same words as the autoplay summary). */
function ticksText(data: ReportData): string {
  const ticks = data.stored.figures.ticks;
  return ticks === null ? 'ticks unknown (no game state recorded)' : `${ticks} tick${ticks === 1 ? '' : 's'}`;
}

/** Where a utilisation figure came from, in the words every view uses. */
export function utilisationText(source: UtilisationSource | null | undefined): string {
  return source === 'server'
    ? "the game's busy ÷ alive"
    : 'estimated by Skipper: ticks its actions took ÷ ticks elapsed; the game did not report busy ticks';
}

/** Whose prices net worth counts the hold at, in the words every view uses. */
export function pricingText(pricing: NetWorthPricing | null | undefined): string {
  return pricing === 'market'
    ? "net worth: cargo at the game's market bids seen (minimolt's price table for items no market showed)"
    : "net worth: cargo at minimolt's price table (no market seen)";
}

const percent = (value: number | null): string => (value === null ? 'n/a' : `${(value * 100).toFixed(0)}%`);

/**
 * The report as text lines. `width`: the terminal's columns, text is clipped to it; undefined (a pipe or a file):
 * nothing is clipped, and the charts take 80 columns.
 */
/** The session's cost, or "price unknown" when its model has no known price (never a made-up $0). */
export function reportCost(data: ReportData): string {
  return formatCost({ costUsd: data.usage.costUsd, priced: data.priced });
}

export function formatReport(
  data: ReportData,
  options: { width: number | undefined; color: boolean; plotHeight?: number },
): string[] {
  const chalk = createChalk(options.color);
  const width = Math.max(30, Math.min(options.width ?? 80, 120));
  const clip = (text: string): string => (options.width === undefined ? text : clipToWidth(text, width));
  const lines: string[] = [];
  const s = data.session;
  lines.push(chalk.bold(`Report · ${s.name}`));
  lines.push(
    chalk.dim(
      clip(
        `model ${s.model} · game ${s.game} · ${data.turns} turn${data.turns === 1 ? '' : 's'} · ${ticksText(data)}${s.goal ? ` · goal: ${s.goal}` : ''}`,
      ),
    ),
  );
  const first = data.points[0];
  const last = data.points.at(-1);
  if (!first || !last) {
    lines.push('', 'No game state recorded in this session yet (no dashboard in any tool result): nothing to plot.');
  } else {
    const per100 =
      data.ticks > 0 ? ` (${signed(Math.round((data.netWorthChange / data.ticks) * 100))} per 100 ticks)` : '';
    const chart = (
      title: string,
      read: (point: ReportPoint) => number,
      from: number,
      to: number,
      gain: number,
      extra = '',
    ): void => {
      lines.push(
        '',
        `${chalk.bold(title)}  ${from.toLocaleString('en-US')} → ${to.toLocaleString('en-US')} (${signed(gain)})${extra}`,
      );
      const series: PlotPoint[] = data.points.map((point) => ({ x: point.tick, y: read(point) }));
      lines.push(
        ...plotLine(series, {
          width,
          height: options.plotHeight ?? 8,
          xLabels: [`tick ${first.tick}`, `tick ${last.tick}`],
        }),
      );
    };
    chart('Net worth', (point) => point.netWorth, first.netWorth, last.netWorth, data.netWorthChange, per100);
    lines.push(chalk.dim(`  ${pricingText(data.netWorthPricing)}`));
    chart('Credits', (point) => point.credits, first.credits, last.credits, data.creditsChange);
  }
  lines.push('');
  lines.push(
    `Actions      ${data.actions} (${data.actionsPerTick === null ? 'n/a' : data.actionsPerTick.toFixed(2)} per tick)`,
  );
  lines.push(
    `Utilisation  ${percent(data.tickUtilisation)}${data.tickUtilisation === null ? '' : ` (${utilisationText(data.utilisationSource)})`}`,
  );
  const ok = data.toolCalls - data.failedCalls;
  lines.push(
    `Tool calls   ${data.toolCalls} · ${ok} ok (${percent(data.toolCalls > 0 ? ok / data.toolCalls : null)}) · ${data.failedCalls} failed`,
  );
  const codes = Object.entries(data.errorsByCode).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  lines.push(
    `Errors       ${codes.length === 0 ? 'none' : codes.map(([code, count]) => `${code} ${count}`).join(', ')}`,
  );
  const u = data.usage;
  lines.push(
    `Tokens       ${formatTokens(u.promptTokens + u.completionTokens)} (prompt ${formatTokens(u.promptTokens)}, ` +
      `completion ${formatTokens(u.completionTokens)}, cached ${formatTokens(u.cachedTokens)}) over ${u.calls} model calls`,
  );
  lines.push(costLine(data));
  return lines.map((line) => line.replace(/\s+$/, ''));
}

/** The cost, with USD per 1,000 credits gained and credits gained per 1,000 tokens beside it. */
function costLine(data: ReportData): string {
  const u = data.usage;
  const perThousand =
    data.usdPer1000Credits === null
      ? 'n/a (no net-worth gain)'
      : reportCost(data) === 'price unknown'
        ? 'n/a (price unknown)'
        : `${formatUsd(data.usdPer1000Credits)}`;
  const perTokens = creditsPer1kTokens(data.stored.figures.netWorthChange, u.promptTokens + u.completionTokens);
  return (
    `Cost         ${reportCost(data)} · USD per 1,000 credits gained: ${perThousand} · ` +
    `credits per 1,000 tokens: ${perTokens === null ? '—' : perTokens.toFixed(1)}`
  );
}

export interface ReportCommandDeps {
  openStore: (place: StorePlace, options?: StoreAccess) => Promise<Store>;
}

export function registerReportCommand(program: Command, deps: ReportCommandDeps): void {
  commandFrom(program, REPORT)
    .argument('<name>', 'session name (see `skipper sessions`)')
    .option('--json', 'the report data as JSON instead of text')
    .addOption(new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)'))
    .addOption(dbOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ skipper report 2026-11-21-amber-falcon\n  $ skipper report bench-…-grind-builtin-autopilot-1 --home ~/.local/share/skipper/bench/<time>',
    )
    .action(async (name: string, _options: unknown, command: Command) => {
      // Read merged: a program without positional options (tests) keeps --home and --json after `report` for itself.
      const options = command.optsWithGlobals<{ json?: boolean; home?: string; db?: string }>();
      const store = await deps.openStore(storePlaceOf(options), { readonly: true });
      try {
        const data = await buildReport(store, name);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(reportJson(data))}\n`);
          return;
        }
        const color = wantsColor(process.stdout, process.env);
        // A terminal clips to its width; a pipe or a file gets every line whole.
        const width = process.stdout.isTTY ? (process.stdout.columns ?? 80) : undefined;
        const lines = formatReport(data, { width, color });
        process.stdout.write(`${lines.join('\n')}\n`);
      } finally {
        await store.close();
      }
    });
}
