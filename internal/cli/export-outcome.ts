// The outcome section at the top of `skipper export --format md`: how long the session ran, the ticks, credits and
// net worth it gained, tick utilisation, what it cost, and the net worth plotted as text — the figures `skipper
// report`, `sessions` and the autoplay summary show (storedFigures, through buildReport).
import type { Store } from '../store/index.js';
import { plotLine } from './plot.js';
import { buildReport, pricingText, reportCost, utilisationText } from './report.js';
import { formatDuration, formatTokens, signed } from './text.js';

export async function exportOutcomeMarkdown(store: Store, name: string): Promise<string> {
  const data = await buildReport(store, name);
  const { durationMs, figures, utilisation } = data.stored;
  const first = data.points[0];
  const last = data.points.at(-1);
  const lines = ['## Outcome', ''];
  if (durationMs !== null)
    lines.push(`- duration: ${formatDuration(durationMs)} · ${data.turns} turn${data.turns === 1 ? '' : 's'}`);
  lines.push(`- ticks: ${figures.ticks ?? 'unknown (no game state recorded)'}`);
  if (utilisation)
    lines.push(`- tick utilisation: ${(utilisation.value * 100).toFixed(1)}% (${utilisationText(utilisation.source)})`);
  if (first && last) {
    lines.push(
      `- credits: ${first.credits.toLocaleString('en-US')} → ${last.credits.toLocaleString('en-US')} (${signed(data.creditsChange)})`,
    );
    lines.push(
      `- net worth: ${first.netWorth.toLocaleString('en-US')} → ${last.netWorth.toLocaleString('en-US')} (${signed(data.netWorthChange)})`,
    );
    lines.push(`- priced: ${pricingText(data.netWorthPricing).replace(/^net worth: /, '')}`);
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
