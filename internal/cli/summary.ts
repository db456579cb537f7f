// The autoplay summary, as lines for a person and as an object for --json.
import type { ChalkInstance } from 'chalk';
import type { AutoplaySummary } from '../session/index.js';
import { formatDuration, formatTokens, formatUsd } from './text.js';
import { invocation } from './invocation.js';

const signed = (value: number): string => (value >= 0 ? `+${value}` : String(value));

function change(label: string, from: number | undefined, to: number | undefined): string {
  if (from === undefined && to === undefined) return `${label}: unknown`;
  if (from === undefined || to === undefined) return `${label}: ${to ?? from}`;
  return `${label}: ${from} → ${to} (${signed(to - from)})`;
}

export function summaryLines(summary: AutoplaySummary, chalk: ChalkInstance): string[] {
  const tokens = summary.usage.promptTokens + summary.usage.completionTokens;
  const errors = Object.entries(summary.errorsByCode)
    .sort((a, b) => b[1] - a[1])
    .map(([code, count]) => `${code}×${count}`)
    .join(', ');
  const estimated = summary.tickSource === 'estimated' ? ' (estimated by Skipper: the game does not report ticks)' : '';
  const utilisation = summary.tickUtilisation === undefined ? 'unknown (the game does not report it)' : `${(summary.tickUtilisation * 100).toFixed(1)}%${estimated}`;
  const lines = [
    '',
    chalk.bold(`Autoplay ended: ${summary.stopReason}`),
    `  duration ${formatDuration(summary.durationMs)} · turns ${summary.turns} · ticks ${summary.ticks ?? 'unknown'} · tick utilisation ${utilisation}`,
    `  actions ${summary.actions} · tool calls ${summary.toolCalls} · errors ${errors || 'none'}`,
    `  ${change('credits', summary.start?.credits, summary.end?.credits)} · ${change('net worth', summary.start?.netWorth, summary.end?.netWorth)}`,
    `  tokens ${formatTokens(tokens)} · cost ${formatUsd(summary.usage.costUsd)}${summary.deaths ? ` · deaths ${summary.deaths}` : ''}${summary.leaks ? chalk.red(` · LEAKS ${summary.leaks}`) : ''}`,
    `  session ${chalk.bold(summary.sessionName)}`,
    `  replay it: ${chalk.cyan(`${invocation()} replay ${summary.sessionName}`)} · go on: ${chalk.cyan(`${invocation()} -s ${summary.sessionName} --autoplay`)}`,
  ];
  return lines;
}

export function summaryJson(summary: AutoplaySummary): Record<string, unknown> {
  return {
    goal: summary.goal,
    stop_reason: summary.stopReason,
    duration_ms: summary.durationMs,
    turns: summary.turns,
    ticks: summary.ticks ?? null,
    tick_utilisation: summary.tickUtilisation ?? null,
    tick_source: summary.tickSource ?? null,
    actions: summary.actions,
    tool_calls: summary.toolCalls,
    errors_by_code: summary.errorsByCode,
    outcomes: summary.outcomes,
    credits_start: summary.start?.credits ?? null,
    credits_end: summary.end?.credits ?? null,
    net_worth_start: summary.start?.netWorth ?? null,
    net_worth_end: summary.end?.netWorth ?? null,
    prompt_tokens: summary.usage.promptTokens,
    completion_tokens: summary.usage.completionTokens,
    cost_usd: summary.usage.costUsd,
    deaths: summary.deaths ?? null,
    leaks: summary.leaks ?? null,
    session: summary.sessionName,
    replay: `${invocation()} replay ${summary.sessionName}`,
  };
}
