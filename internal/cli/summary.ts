// The autoplay summary, as lines for a person and as an object for --json. Once the run is stored, its figures are
// the store's (withStoredFigures: storedFigures over the run's span, the handoff turn included), so the summary says
// what `sessions`, `report` and export say.
import type { ChalkInstance } from 'chalk';
import {
  figuresBetween,
  figuresJson,
  stopReasonJson,
  stopReasonText,
  storedFiguresJson,
  usageJson,
  type AutoplaySummary,
  type StoredFigures,
} from '../session/index.js';
import { economyText, formatCost, formatDuration, formatTokens, signed } from './text.js';
import { invocation, passwordNote } from './invocation.js';
import { pricingText, utilisationText } from './report.js';
import type { StorePlace } from '../shared/index.js';

/**
 * The summary with the figures the store holds for the run (from its start snapshot on): turns (the handoff turn
 * too), duration, ticks, credits, net worth and its pricing, utilisation and its source. Cost is the session's when
 * the run is the whole session, else the run's own usage (the store sums usage per session).
 */
export function withStoredFigures(summary: AutoplaySummary, stored: StoredFigures): AutoplaySummary {
  const usage = summary.usage;
  const figures: StoredFigures =
    summary.startTurn === 0
      ? stored
      : {
          ...stored,
          usage: {
            ...stored.usage,
            promptTokens: usage.promptTokens,
            completionTokens: usage.completionTokens,
            costUsd: usage.costUsd,
          },
        };
  const state = (point: StoredFigures['figures']['start']): AutoplaySummary['start'] =>
    point ? { tick: point.tick, credits: point.credits, netWorth: point.netWorth } : undefined;
  const utilisation = figures.utilisation;
  const { tickUtilisation: _value, utilisationSource: _source, ...rest } = summary;
  return {
    ...rest,
    turns: figures.turns,
    durationMs: figures.durationMs ?? summary.durationMs,
    ticks: figures.figures.ticks ?? undefined,
    tickUtilisation: utilisation?.value,
    ...(utilisation ? { utilisationSource: utilisation.source } : {}),
    start: state(figures.figures.start),
    end: state(figures.figures.end),
    usage: { ...usage, costUsd: figures.usage.costUsd },
    stored: figures,
  };
}

/** The ticks, or why they are not known. */
function ticksText(summary: AutoplaySummary): string {
  if (summary.ticks === undefined) return 'unknown (no game state recorded)';
  return `${summary.tickSource === 'estimated' ? '~' : ''}${summary.ticks}`;
}

function utilisationLine(summary: AutoplaySummary): string {
  if (summary.tickUtilisation !== undefined)
    return `${(summary.tickUtilisation * 100).toFixed(1)}% (${utilisationText(summary.utilisationSource)})`;
  return summary.ticks === undefined ? 'unknown (no game state recorded)' : 'unknown (no tick went by)';
}

function change(label: string, from: number | undefined, to: number | undefined): string {
  if (from === undefined && to === undefined) return `${label}: unknown`;
  if (from === undefined || to === undefined) return `${label}: ${to ?? from}`;
  return `${label}: ${from} → ${to} (${signed(to - from, { grouped: false })})`;
}

export interface SummaryView {
  chalk: ChalkInstance;
  /** The run's --home and --db, carried into the commands the summary suggests. */
  place?: StorePlace | undefined;
}

export function summaryLines(summary: AutoplaySummary, view: SummaryView): string[] {
  const { chalk, place } = view;
  const again = invocation({ place });
  const note = passwordNote(place);
  const tokens = summary.usage.promptTokens + summary.usage.completionTokens;
  const errors = Object.entries(summary.errorsByCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => `${code}×${count}`)
    .join(', ');
  // Each figure says where it came from: the game's own, or Skipper's estimate (see tickUtilisation in session).
  const ticks = ticksText(summary);
  const utilisation = utilisationLine(summary);
  const pricing = summary.stored && summary.end ? [chalk.dim(`  ${pricingText(summary.stored.netWorthPricing)}`)] : [];
  const lines = [
    '',
    chalk.bold(`Autoplay ended: ${stopReasonText(summary.stopReason)}`),
    `  duration ${formatDuration(summary.durationMs)} · turns ${summary.turns} · ticks ${ticks} · tick utilisation ${utilisation}`,
    `  actions ${summary.actions} · tool calls ${summary.toolCalls} · errors ${errors || 'none'}`,
    `  ${change('credits', summary.start?.credits, summary.end?.credits)} · ${change('net worth', summary.start?.netWorth, summary.end?.netWorth)}`,
    ...pricing,
    `  tokens ${formatTokens(tokens)} (${formatTokens(summary.usage.cachedTokens)} cached) · cost ${formatCost(summary.usage)}${handoffNote(summary)}${summary.deaths ? ` · deaths ${summary.deaths}` : ''}${summary.leaks ? chalk.red(` · LEAKS ${summary.leaks}`) : ''}`,
    `  ${economyText({ ...summary.usage, tokens, creditsGained: figuresBetween(summary.start, summary.end).netWorthChange })}`,
    ...plannerLines(summary),
    `  session ${chalk.bold(summary.sessionName)}`,
    `  replay it: ${chalk.cyan(`${again} replay ${summary.sessionName}`)} · go on: ${chalk.cyan(`${again} -s ${summary.sessionName} --autoplay${summary.planner ? ' --planner' : ''}${sameLimit(summary)}`)}`,
    ...(note ? [chalk.dim(`  ${note}`)] : []),
  ];
  return lines;
}
/** The limit the run stopped at, for the "go on" hint: run as printed, it plays as far again and ends by itself. */
function sameLimit(summary: AutoplaySummary): string {
  const reason = summary.stopReason;
  if (reason.code === 'max_ticks') return ` --max-ticks ${reason.limit}`;
  if (reason.code === 'max_turns') return ` --max-turns ${reason.limit}`;
  if (reason.code === 'duration') return ` --duration ${Math.max(1, Math.round(reason.limitMs / 1000))}s`;
  return '';
}

function handoffNote(summary: AutoplaySummary): string {
  const handoff = summary.handoff;
  if (!handoff) return '';
  return ` (handoff note: ${formatTokens(handoff.promptTokens + handoff.completionTokens)} tokens, ${formatCost(handoff)})`;
}

function plannerLines(summary: AutoplaySummary): string[] {
  const planner = summary.planner;
  if (!planner) return [];
  const why = Object.entries(planner.reasons)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
  return [
    `  planner: the model was woken ${planner.wakes}×${why ? ` (${why})` : ''} · ${planner.modelRequests} model request${planner.modelRequests === 1 ? '' : 's'}`,
    `  plan: ${planner.plan ?? 'none set'}`,
  ];
}

/** The `autoplay-end` event: the figures under the names `sessions --json` and `report --json` use, credits and net
 * worth measured by the same figuresBetween; the ticks are the run's own (the game's tick or the clock's estimate). */
export function summaryJson(summary: AutoplaySummary, place?: StorePlace): Record<string, unknown> {
  return {
    goal: summary.goal,
    stop_reason: stopReasonJson(summary.stopReason),
    duration_ms: summary.durationMs,
    turns: summary.turns,
    ...figuresJson({ ...figuresBetween(summary.start, summary.end), ticks: summary.ticks ?? null }),
    tick_utilisation: summary.tickUtilisation ?? null,
    tick_source: summary.tickSource ?? null,
    tick_utilisation_source: summary.utilisationSource ?? null,
    actions: summary.actions,
    tool_calls: summary.toolCalls,
    errors_by_code: summary.errorsByCode,
    outcomes: summary.outcomes,
    ...usageJson(summary.usage, {
      creditsGained: figuresBetween(summary.start, summary.end).netWorthChange,
      priced: summary.usage.priced !== false,
    }),
    // Stored: the figures every view writes, from the store (they replace the run's own counts above).
    ...(summary.stored ? storedFiguresJson(summary.stored, { priced: summary.usage.priced !== false }) : {}),
    ...(summary.handoff ? { handoff: usageJson(summary.handoff) } : {}),
    deaths: summary.deaths ?? null,
    leaks: summary.leaks ?? null,
    ...(summary.planner
      ? {
          planner: {
            wakes: summary.planner.wakes,
            model_requests: summary.planner.modelRequests,
            reasons: summary.planner.reasons,
            plan: summary.planner.plan ?? null,
          },
        }
      : {}),
    session: summary.sessionName,
    replay: `${invocation({ place })} replay ${summary.sessionName}`,
  };
}
