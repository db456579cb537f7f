// `skipper report NAME`: an outcome report of a stored session, from the store alone — net worth and credits over
// time (plots), actions per tick, tick utilisation (estimated from the transcript), errors by code, tokens, cost and
// USD per 1,000 credits gained.
import { Option, type Command } from 'commander';
import { defaultIsQuery } from '../llm/index.js';
import { OP_KINDS, type GameOp, type Message } from '../shared/index.js';
import type { Session, Store, UsageTotals } from '../store/index.js';
import { toolErrorCode } from './benchmark-log.js';
import { stateFromMessage, ticksTaken } from '../session/index.js';
import { wantsColor } from './output.js';
import { plotLine, type PlotPoint } from './plot.js';
import { createChalk } from './render.js';
import { clipToWidth, formatTokens, formatUsd } from './text.js';

/** Tools that change nothing in the world and cost no tick although they are not queries. */
const FREE_ACTIONS: ReadonlySet<string> = new Set(['register', 'login', 'logout', 'chat', 'captains_log_add']);

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
  netWorthGain: number;
  creditsGain: number;
  toolCalls: number;
  failedCalls: number;
  /** Successful tick-costing actions (mutations). */
  actions: number;
  actionsPerTick: number | null;
  /** Ticks that ended in a successful action ÷ ticks elapsed, from the dashboards' ticks. */
  tickUtilisation: number | null;
  errorsByCode: Record<string, number>;
  usage: UsageTotals;
  usdPer1000Credits: number | null;
}

/** The error code of a failed tool result: structured error, then "code: message", then the loop's own errors. */
export function errorCodeOf(message: Pick<Message, 'content' | 'data' | 'toolName'>): string {
  const code = toolErrorCode(message);
  if (code !== 'error') return code;
  // Sessions recorded before Skipper stored its own error codes: read them from the text.
  const text = message.content;
  if (/^unknown tool\b|has no name/.test(text)) return 'unknown_tool';
  if (/arguments are not valid JSON|arguments must be a JSON object/.test(text)) return 'invalid_arguments';
  // Local tools (captain memory) store no structured error: "remember: invalid arguments — …".
  if (/^[a-z_]+: invalid arguments\b/.test(text)) return 'invalid_params';
  if (/^forget: there is no memory\b/.test(text)) return 'not_found';
  return /cancel/i.test(text) ? 'cancelled' : 'error';
}

/** A stored result is an action when the game layer read it as a mutation op; results of other games fall back to
 * the name rule (one tool, one kind). */
function isActionResult(message: Message): boolean {
  const op = (message.data as { op?: unknown } | undefined)?.op;
  if (typeof op === 'string' && op in OP_KINDS) return OP_KINDS[op as GameOp] === 'mutation';
  const name = message.toolName ?? '';
  return name !== '' && !defaultIsQuery(name) && !FREE_ACTIONS.has(name);
}


export function buildReport(store: Store, name: string): ReportData {
  const session = store.getSession(name);
  const points: ReportPoint[] = [];
  const errorsByCode: Record<string, number> = {};
  let toolCalls = 0;
  let failedCalls = 0;
  let actions = 0;
  // Ticks the captain's actions took (at least one each; travel and jump say how many): the client's own count,
  // the same one the autoplay summary uses when the game reports no busy ticks (SpaceMolt's text never says ticks).
  let actionTicks = 0;
  let firstState: ReportPoint | undefined;
  for (const message of store.iterateMessages(session.id)) {
    if (message.role !== 'tool') continue;
    toolCalls += 1;
    if (message.isError) {
      failedCalls += 1;
      const code = errorCodeOf(message);
      errorsByCode[code] = (errorsByCode[code] ?? 0) + 1;
      continue;
    }
    if (isActionResult(message)) {
      actions += 1;
      actionTicks += Math.max(1, ticksTaken(message.data));
    }
    const state = stateFromMessage(message);
    if (!firstState && state?.credits !== undefined && state.tick !== undefined) {
      firstState = { turn: message.turn ?? 0, tick: state.tick, credits: state.credits, netWorth: state.netWorth ?? state.credits };
    }
  }
  if (firstState) points.push({ ...firstState, turn: 0 });
  for (const snapshot of store.snapshots(session.id)) {
    points.push({ turn: snapshot.turn, tick: snapshot.tick, credits: snapshot.credits, netWorth: snapshot.netWorth });
  }
  const first = points[0];
  const last = points.at(-1);
  const ticks = first && last ? Math.max(0, last.tick - first.tick) : 0;
  const usage = store.usageTotals(session.id);
  const netWorthGain = first && last ? last.netWorth - first.netWorth : 0;
  return {
    session: { name: session.name, model: session.model, game: session.game, goal: session.goal, createdAt: session.createdAt },
    points,
    turns: store.turns(session.id).length,
    ticks,
    netWorthGain,
    creditsGain: first && last ? last.credits - first.credits : 0,
    toolCalls,
    failedCalls,
    actions,
    actionsPerTick: ticks > 0 ? actions / ticks : null,
    tickUtilisation: ticks > 0 ? Math.min(1, actionTicks / ticks) : null,
    errorsByCode,
    usage,
    usdPer1000Credits: netWorthGain > 0 ? (usage.costUsd / netWorthGain) * 1000 : null,
  };
}

const signed = (value: number): string => (value >= 0 ? `+${value.toLocaleString('en-US')}` : value.toLocaleString('en-US'));
const percent = (value: number | null): string => (value === null ? 'n/a' : `${(value * 100).toFixed(0)}%`);

export function formatReport(data: ReportData, options: { width: number; color: boolean; plotHeight?: number }): string[] {
  const chalk = createChalk(options.color);
  const width = Math.max(30, Math.min(options.width, 120));
  const lines: string[] = [];
  const s = data.session;
  lines.push(chalk.bold(`Report · ${s.name}`));
  lines.push(chalk.dim(clipToWidth(`model ${s.model} · game ${s.game} · ${data.turns} turns · ${data.ticks} ticks${s.goal ? ` · goal: ${s.goal}` : ''}`, width)));
  const first = data.points[0];
  const last = data.points.at(-1);
  if (!first || !last) {
    lines.push('', 'No game state recorded in this session yet (no dashboard in any tool result): nothing to plot.');
  } else {
    const per100 = data.ticks > 0 ? ` (${signed(Math.round((data.netWorthGain / data.ticks) * 100))} per 100 ticks)` : '';
    const chart = (title: string, read: (point: ReportPoint) => number, from: number, to: number, gain: number, extra = ''): void => {
      lines.push('', `${chalk.bold(title)}  ${from.toLocaleString('en-US')} → ${to.toLocaleString('en-US')} (${signed(gain)})${extra}`);
      const series: PlotPoint[] = data.points.map((point) => ({ x: point.tick, y: read(point) }));
      lines.push(...plotLine(series, { width, height: options.plotHeight ?? 8, xLabels: [`tick ${first.tick}`, `tick ${last.tick}`] }));
    };
    chart('Net worth', (point) => point.netWorth, first.netWorth, last.netWorth, data.netWorthGain, per100);
    chart('Credits', (point) => point.credits, first.credits, last.credits, data.creditsGain);
  }
  lines.push('');
  lines.push(`Actions      ${data.actions} (${data.actionsPerTick === null ? 'n/a' : data.actionsPerTick.toFixed(2)} per tick) · ` +
    `tick utilisation ${percent(data.tickUtilisation)} (ticks ending in an action ÷ ticks)`);
  const ok = data.toolCalls - data.failedCalls;
  lines.push(`Tool calls   ${data.toolCalls} · ${ok} ok (${percent(data.toolCalls > 0 ? ok / data.toolCalls : null)}) · ${data.failedCalls} failed`);
  const codes = Object.entries(data.errorsByCode).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  lines.push(`Errors       ${codes.length === 0 ? 'none' : codes.map(([code, count]) => `${code} ${count}`).join(', ')}`);
  const u = data.usage;
  lines.push(`Tokens       ${formatTokens(u.promptTokens + u.completionTokens)} (prompt ${formatTokens(u.promptTokens)}, ` +
    `completion ${formatTokens(u.completionTokens)}, cached ${formatTokens(u.cachedTokens)}) over ${u.calls} model calls`);
  const perThousand = data.usdPer1000Credits === null
    ? 'n/a (no net-worth gain)'
    : `${formatUsd(data.usdPer1000Credits)}`;
  lines.push(`Cost         ${formatUsd(u.costUsd)} · USD per 1,000 credits gained: ${perThousand}`);
  return lines.map((line) => line.replace(/\s+$/, ''));
}

export interface ReportCommandDeps {
  openStore: (home: string | undefined) => Store;
}

export function registerReportCommand(program: Command, deps: ReportCommandDeps): void {
  program
    .command('report')
    .description('outcome report of a stored session: net worth and credits over time, actions, errors, tokens, cost')
    .argument('<name>', 'session name (see `skipper sessions`)')
    .option('--json', 'the report data as JSON instead of text')
    .addOption(new Option('--home <dir>', 'data directory (default $SKIPPER_HOME or ~/.local/share/skipper)'))
    .addHelpText('after', '\nExamples:\n  $ skipper report 2026-11-21-amber-falcon\n  $ skipper report bench-…-grind-builtin-autopilot-1 --home ~/.local/share/skipper/bench/<time>')
    .action((name: string, _options: unknown, command: Command) => {
      // --home and --json are also program options, which commander hands to the program even after `report`.
      const options = command.optsWithGlobals<{ json?: boolean; home?: string }>();
      const store = deps.openStore(options.home);
      try {
        const data = buildReport(store, name);
        if (options.json) {
          process.stdout.write(`${JSON.stringify(data)}\n`);
          return;
        }
        const color = wantsColor(process.stdout, process.env);
        const lines = formatReport(data, { width: process.stdout.columns ?? 80, color });
        process.stdout.write(`${lines.join('\n')}\n`);
      } finally {
        store.close();
      }
    });
}
