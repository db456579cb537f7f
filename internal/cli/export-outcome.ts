// The outcome section at the top of `skipper export --format md`: how long the session ran, the ticks, credits and
// net worth it gained, what it cost, and the net worth plotted as text — the figures `skipper report` shows, from the
// same stored snapshots.
import type { Store } from '../store/index.js';
import { plotLine } from './plot.js';
import { buildReport, reportCost } from './report.js';
import { formatDuration, formatTokens, signed } from './text.js';

export function exportOutcomeMarkdown(store: Store, name: string): string {
  const data = buildReport(store, name);
  const session = store.getSession(name);
  const turns = store.turns(session.id);
  const first = data.points[0];
  const last = data.points.at(-1);
  const lines = ['## Outcome', ''];
  if (turns.length > 0)
    lines.push(
      `- duration: ${formatDuration(Math.max(0, (turns.at(-1)?.endedAt ?? 0) - (turns[0]?.startedAt ?? 0)))} · ${data.turns} turns`,
    );
  lines.push(`- ticks: ${data.ticks}`);
  if (first && last) {
    lines.push(
      `- credits: ${first.credits.toLocaleString('en-US')} → ${last.credits.toLocaleString('en-US')} (${signed(data.creditsChange)})`,
    );
    lines.push(
      `- net worth: ${first.netWorth.toLocaleString('en-US')} → ${last.netWorth.toLocaleString('en-US')} (${signed(data.netWorthChange)})`,
    );
  } else {
    lines.push('- credits and net worth: no game state recorded');
  }
  const usage = data.usage;
  lines.push(`- cost: ${reportCost(data)} (${formatTokens(usage.promptTokens + usage.completionTokens)} tokens)`);
  lines.push(`- actions: ${data.actions} · tool calls ${data.toolCalls} (${data.failedCalls} failed)`);
  if (first && last && data.points.length > 1) {
    const plot = plotLine(
      data.points.map((point) => ({ x: point.tick, y: point.netWorth })),
      {
        width: 72,
        height: 6,
        xLabels: [`tick ${first.tick}`, `tick ${last.tick}`],
      },
    );
    lines.push('', 'Net worth:', '', '```', ...plot, '```');
  }
  lines.push('');
  return `${lines.join('\n')}\n`;
}
