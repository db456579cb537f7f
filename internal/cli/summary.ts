// The autoplay summary, as lines for a person and as an object for --json.
import type { ChalkInstance } from 'chalk';
import { figuresBetween, figuresJson, stopReasonText, usageJson, type AutoplaySummary } from '../session/index.js';
import { formatCost, formatDuration, formatTokens, signed } from './text.js';
import { invocation } from './invocation.js';

function change(label: string, from: number | undefined, to: number | undefined): string {
  if (from === undefined && to === undefined) return `${label}: unknown`;
  if (from === undefined || to === undefined) return `${label}: ${to ?? from}`;
  return `${label}: ${from} → ${to} (${signed(to - from, { grouped: false })})`;
}

export function summaryLines(summary: AutoplaySummary, chalk: ChalkInstance): string[] {
  const tokens = summary.usage.promptTokens + summary.usage.completionTokens;
  const errors = Object.entries(summary.errorsByCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => `${code}×${count}`)
    .join(', ');
  // Each figure says where it came from: the game's own, or Skipper's estimate (see tickUtilisation in session).
  const ticks =
    summary.ticks === undefined ? 'unknown' : `${summary.tickSource === 'estimated' ? '~' : ''}${summary.ticks}`;
  const source =
    summary.utilisationSource === 'estimated'
      ? ' (estimated by Skipper: ticks its actions took ÷ ticks elapsed; the game does not report busy ticks)'
      : summary.utilisationSource === 'server'
        ? " (the game's busy ÷ alive)"
        : '';
  const utilisation =
    summary.tickUtilisation === undefined
      ? 'unknown (no tick went by)'
      : `${(summary.tickUtilisation * 100).toFixed(1)}%${source}`;
  const lines = [
    '',
    chalk.bold(`Autoplay ended: ${stopReasonText(summary.stopReason)}`),
    `  duration ${formatDuration(summary.durationMs)} · turns ${summary.turns} · ticks ${ticks} · tick utilisation ${utilisation}`,
    `  actions ${summary.actions} · tool calls ${summary.toolCalls} · errors ${errors || 'none'}`,
    `  ${change('credits', summary.start?.credits, summary.end?.credits)} · ${change('net worth', summary.start?.netWorth, summary.end?.netWorth)}`,
    `  tokens ${formatTokens(tokens)} · cost ${formatCost(summary.usage)}${handoffNote(summary)}${summary.deaths ? ` · deaths ${summary.deaths}` : ''}${summary.leaks ? chalk.red(` · LEAKS ${summary.leaks}`) : ''}`,
    ...plannerLines(summary),
    `  session ${chalk.bold(summary.sessionName)}`,
    `  replay it: ${chalk.cyan(`${invocation()} replay ${summary.sessionName}`)} · go on: ${chalk.cyan(`${invocation()} -s ${summary.sessionName} --autoplay${summary.planner ? ' --planner' : ''}`)}`,
  ];
  return lines;
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
export function summaryJson(summary: AutoplaySummary): Record<string, unknown> {
  return {
    goal: summary.goal,
    stop_reason: stopReasonText(summary.stopReason),
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
    ...usageJson(summary.usage),
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
    replay: `${invocation()} replay ${summary.sessionName}`,
  };
}
