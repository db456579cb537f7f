// `skipper report NAME`: an outcome report of a stored session, from the store alone — net worth and credits over
// time (plots), actions per tick, tick utilisation (Skipper's estimate from the transcript: the store keeps no server
// figures), errors by code, tokens, cost and USD per 1,000 credits gained. Actions and utilisation are the autoplay
// summary's: the game layer's classification of each call, and the one tickUtilisation of internal/session.
import { Option, type Command } from 'commander';
import { errorCodeOf, type Message, type ToolCall, type ToolSpec } from '../shared/index.js';
import { argumentsOf } from '../spacemolt/index.js';
import type { Session, SnapshotRecord, Store, UsageTotals } from '../store/index.js';
import {
  figuresJson,
  sessionFigures,
  stateFromMessage,
  storedCallKinds,
  tickUtilisation,
  ticksTaken,
  usageJson,
  type UtilisationSource,
} from '../session/index.js';
import { wantsColor } from './output.js';
import { plotLine, type PlotPoint } from './plot.js';
import { createChalk } from './render.js';
import { clipToWidth, formatCost, formatTokens, formatUsd, signed } from './text.js';
import { storedModelPriced } from '../provider/index.js';

export interface ReportPoint {
  turn: number;
  tick: number;
  credits: number;
  netWorth: number;
}

export interface ReportData {
  session: Pick<Session, 'name' | 'model' | 'game' | 'goal' | 'createdAt'>;
  /** The first dashboard in the transcript, then one point per turn (snapshots). */
  points: ReportPoint[];
  turns: number;
  ticks: number;
  /** Net worth and credits between the first and the last point (sessionFigures; 0 when nothing was recorded). */
  netWorthChange: number;
  creditsChange: number;
  toolCalls: number;
  failedCalls: number;
  /** Successful tick-costing actions (mutations, as the game layer classifies each call), the whole session. */
  actions: number;
  /** Actions between the first and the last point ÷ the ticks between them. */
  actionsPerTick: number | null;
  /** Ticks the successful actions between the first and the last point took (ticksTaken). */
  actionTicks: number;
  /** actionTicks ÷ ticks (tickUtilisation in internal/session). */
  tickUtilisation: number | null;
  /** Where utilisation came from: always Skipper's estimate here, since the store keeps no server figures. */
  utilisationSource: UtilisationSource | null;
  errorsByCode: Record<string, number>;
  usage: UsageTotals;
  /** false when the session's model has no known price: usage.costUsd counts its calls as 0. */
  priced: boolean;
  usdPer1000Credits: number | null;
}

/** The error code of a failed tool result: the one kept with it, else read from the text of older sessions. */
export { errorCodeOf };

/** The session's tool list as its model requests recorded it (the game layer's classification of every call);
 * empty for sessions recorded before the request log. The list is fitted once per session, so its first and last
 * requests hold it; a tool called by name past the list is classified from its result or the catalogue. */
function recordedTools(store: Store, sessionId: string): ToolSpec[] {
  const byName = new Map<string, ToolSpec>();
  try {
    const requests = store.requests.list(sessionId);
    for (const request of new Set([requests[0], requests.at(-1)])) {
      if (request) for (const tool of store.requests.load(request.id).tools) byName.set(tool.name, tool);
    }
  } catch {
    // A request log that cannot be read leaves the classification to the results and the catalogue.
  }
  return [...byName.values()];
}

interface ActionSeen {
  /** Position in the transcript. */
  order: number;
  turn: number;
  ticks: number;
}

/** What one pass over the transcript finds: call counts, errors by code, every action, the first dashboard. */
interface TranscriptScan {
  toolCalls: number;
  failedCalls: number;
  errorsByCode: Record<string, number>;
  actionsSeen: ActionSeen[];
  firstState: (ReportPoint & { order: number }) | undefined;
}

function scanTranscript(store: Store, sessionId: string): TranscriptScan {
  const scan: TranscriptScan = {
    toolCalls: 0,
    failedCalls: 0,
    errorsByCode: {},
    actionsSeen: [],
    firstState: undefined,
  };
  const kindOf = storedCallKinds(recordedTools(store, sessionId));
  const calls = new Map<string, ToolCall>();
  let order = 0;
  for (const message of store.iterateMessages(sessionId)) {
    order += 1;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    if (message.role !== 'tool') continue;
    scan.toolCalls += 1;
    const call = message.toolCallId === undefined ? undefined : calls.get(message.toolCallId);
    if (message.toolCallId !== undefined) calls.delete(message.toolCallId);
    if (message.isError) {
      scan.failedCalls += 1;
      const code = errorCodeOf(message);
      scan.errorsByCode[code] = (scan.errorsByCode[code] ?? 0) + 1;
      continue;
    }
    const stored = {
      name: call?.name ?? message.toolName ?? '',
      args: argumentsOf(call?.arguments),
      data: message.data,
    };
    if (stored.name !== '' && kindOf(stored) === 'mutation') {
      scan.actionsSeen.push({ order, turn: message.turn ?? 0, ticks: Math.max(1, ticksTaken(message.data)) });
    }
    scan.firstState ??= firstDashboard(message, order);
  }
  return scan;
}

/** The state a tool result shows, when it says both the tick and the credits (a dashboard). */
function firstDashboard(message: Message, order: number): TranscriptScan['firstState'] {
  const state = stateFromMessage(message);
  if (state?.credits === undefined || state.tick === undefined) return undefined;
  return {
    order,
    turn: message.turn ?? 0,
    tick: state.tick,
    credits: state.credits,
    netWorth: state.netWorth ?? state.credits,
  };
}

/** The points the figures run between: the first dashboard (for sessions stored without a turn-0 snapshot), then
 * one per stored snapshot. */
function reportPoints(snapshots: readonly SnapshotRecord[], firstState: TranscriptScan['firstState']): ReportPoint[] {
  const points: ReportPoint[] = [];
  if (firstState)
    points.push({ turn: 0, tick: firstState.tick, credits: firstState.credits, netWorth: firstState.netWorth });
  for (const snapshot of snapshots) {
    points.push({ turn: snapshot.turn, tick: snapshot.tick, credits: snapshot.credits, netWorth: snapshot.netWorth });
  }
  return points;
}

/**
 * The actions over the span the ticks are measured on: after the first point (a dashboard in a result, else the end
 * of the first snapshotted turn) and up to the last snapshot. Counting the actions before the first known tick too
 * (SpaceMolt's text has no tick: the first point is turn 1's snapshot) made more busy ticks than ticks.
 */
function actionsInSpan(
  actionsSeen: readonly ActionSeen[],
  snapshots: readonly SnapshotRecord[],
  firstState: TranscriptScan['firstState'],
): ActionSeen[] {
  const lastTurn = snapshots.at(-1)?.turn;
  const inSpan = (action: ActionSeen): boolean =>
    (firstState ? action.order > firstState.order : action.turn > (snapshots[0]?.turn ?? Infinity)) &&
    lastTurn !== undefined &&
    action.turn <= lastTurn;
  return actionsSeen.filter(inSpan);
}

export function buildReport(store: Store, name: string): ReportData {
  const session = store.getSession(name);
  const scan = scanTranscript(store, session.id);
  const snapshots = store.snapshots(session.id);
  // Autoplay stores the state it started from as turn 0's snapshot: then every figure runs between stored snapshots,
  // as the summary and `skipper sessions` measure. Older sessions (and chat) start at the first dashboard seen.
  const firstState = snapshots[0]?.turn === 0 ? undefined : scan.firstState;
  const points = reportPoints(snapshots, firstState);
  const figures = sessionFigures(points);
  const ticks = figures.ticks ?? 0;
  const spanned = actionsInSpan(scan.actionsSeen, snapshots, firstState);
  const actionTicks = spanned.reduce((sum, action) => sum + action.ticks, 0);
  const utilisation = tickUtilisation({ actionTicks, ticksElapsed: ticks });
  const usage = store.usageTotals(session.id);
  const netWorthChange = figures.netWorthChange ?? 0;
  return {
    session: {
      name: session.name,
      model: session.model,
      game: session.game,
      goal: session.goal,
      createdAt: session.createdAt,
    },
    points,
    turns: store.turns(session.id).length,
    ticks,
    netWorthChange,
    creditsChange: figures.creditsChange ?? 0,
    toolCalls: scan.toolCalls,
    failedCalls: scan.failedCalls,
    actions: scan.actionsSeen.length,
    actionsPerTick: ticks > 0 ? spanned.length / ticks : null,
    actionTicks,
    tickUtilisation: utilisation?.value ?? null,
    utilisationSource: utilisation?.source ?? null,
    errorsByCode: scan.errorsByCode,
    usage,
    priced:
      usage.promptTokens + usage.completionTokens === 0 ||
      usage.costUsd > 0 || // a cost was counted: the table or a --price (not stored) knew the model
      storedModelPriced(session.model, typeof session.extra.baseUrl === 'string' ? session.extra.baseUrl : undefined),
    usdPer1000Credits: netWorthChange > 0 ? (usage.costUsd / netWorthChange) * 1000 : null,
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
    turns: data.turns,
    // Measured again from the points rather than read from data: a session with no game state says null, not 0.
    ...figuresJson(sessionFigures(data.points)),
    tool_calls: data.toolCalls,
    failed_calls: data.failedCalls,
    actions: data.actions,
    actions_per_tick: data.actionsPerTick,
    action_ticks: data.actionTicks,
    tick_utilisation: data.tickUtilisation,
    tick_utilisation_source: data.utilisationSource,
    errors_by_code: data.errorsByCode,
    ...usageJson(data.usage),
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
        `model ${s.model} · game ${s.game} · ${data.turns} turns · ${data.ticks} ticks${s.goal ? ` · goal: ${s.goal}` : ''}`,
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
    chart('Credits', (point) => point.credits, first.credits, last.credits, data.creditsChange);
  }
  lines.push('');
  lines.push(
    `Actions      ${data.actions} (${data.actionsPerTick === null ? 'n/a' : data.actionsPerTick.toFixed(2)} per tick)`,
  );
  const source =
    data.utilisationSource === 'server'
      ? "the game's busy ÷ alive"
      : "estimated by Skipper: ticks its actions took ÷ ticks elapsed; the game's own busy ticks are not stored";
  lines.push(`Utilisation  ${percent(data.tickUtilisation)}${data.tickUtilisation === null ? '' : ` (${source})`}`);
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
  const perThousand =
    data.usdPer1000Credits === null
      ? 'n/a (no net-worth gain)'
      : reportCost(data) === 'price unknown'
        ? 'n/a (price unknown)'
        : `${formatUsd(data.usdPer1000Credits)}`;
  lines.push(`Cost         ${reportCost(data)} · USD per 1,000 credits gained: ${perThousand}`);
  return lines.map((line) => line.replace(/\s+$/, ''));
}

export interface ReportCommandDeps {
  openStore: (home: string | undefined, options?: { readonly?: boolean }) => Store;
}

export function registerReportCommand(program: Command, deps: ReportCommandDeps): void {
  program
    .command('report')
    .description('outcome report of a stored session: net worth and credits over time, actions, errors, tokens, cost')
    .argument('<name>', 'session name (see `skipper sessions`)')
    .option('--json', 'the report data as JSON instead of text')
    .addOption(new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)'))
    .addHelpText(
      'after',
      '\nExamples:\n  $ skipper report 2026-11-21-amber-falcon\n  $ skipper report bench-…-grind-builtin-autopilot-1 --home ~/.local/share/skipper/bench/<time>',
    )
    .action((name: string, _options: unknown, command: Command) => {
      // Read merged: a program without positional options (tests) keeps --home and --json after `report` for itself.
      const options = command.optsWithGlobals<{ json?: boolean; home?: string }>();
      const store = deps.openStore(options.home, { readonly: true });
      try {
        const data = buildReport(store, name);
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
        store.close();
      }
    });
}
