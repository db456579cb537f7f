// Tick figures say where they came from: the summary and the status line label Skipper's own estimate of the tick
// (see internal/session's tick clock) and leave the game's own tick as it is.
import { describe, expect, it } from 'vitest';
import { createChalk } from '../../../internal/cli/render.js';
import { formatStatusLine } from '../../../internal/cli/status.js';
import { summaryJson, summaryLines } from '../../../internal/cli/summary.js';

describe('the summary says where tick figures came from', () => {
  const base = {
    goal: 'g',
    stopReason: { code: 'max_ticks', limit: 10 } as const,
    durationMs: 100_000,
    turns: 3,
    ticks: 10,
    tickUtilisation: 0.9,
    actions: 9,
    toolCalls: 12,
    errorsByCode: {},
    outcomes: {},
    start: undefined,
    end: undefined,
    sessionName: 's',
    startTurn: 0,
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, costUsd: 0 },
  };

  it('labels the client’s own estimate', () => {
    const estimated = summaryLines(
      { ...base, tickSource: 'estimated', utilisationSource: 'estimated' },
      { chalk: createChalk(false) },
    ).join('\n');
    expect(estimated).toMatch(
      /ticks ~10 · tick utilisation 90\.0% \(estimated by Skipper: ticks its actions took ÷ ticks elapsed/,
    );
    const server = summaryLines(
      { ...base, tickSource: 'server', utilisationSource: 'server' },
      { chalk: createChalk(false) },
    ).join('\n');
    expect(server).toMatch(/ticks 10 · tick utilisation 90\.0% \(the game's busy ÷ alive\)/);
    expect(server).not.toMatch(/estimated/);
    const json = summaryJson({ ...base, tickSource: 'estimated', utilisationSource: 'estimated' });
    expect(json.tick_source).toBe('estimated');
    expect(json.tick_utilisation_source).toBe('estimated');
  });

  it('labels the utilisation by its own source, not the clock’s: the game’s tick with Skipper’s count of busy ticks', () => {
    const mixed = summaryLines(
      { ...base, tickSource: 'server', utilisationSource: 'estimated' },
      { chalk: createChalk(false) },
    ).join('\n');
    expect(mixed).toMatch(/ticks 10 · tick utilisation 90\.0% \(estimated by Skipper/);
  });
});

describe('the status line says when the tick is an estimate', () => {
  it('marks an estimated tick with ~ and leaves the game’s own tick as it is', () => {
    const usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, costUsd: 0 };
    const chalk = createChalk(false);
    expect(formatStatusLine({ state: { credits: 150, tick: 12, tickEstimated: true }, usage, chalk })).toContain(
      'tick ~12',
    );
    const own = formatStatusLine({ state: { credits: 150, tick: 12 }, usage, chalk });
    expect(own).toContain('tick 12');
    expect(own).not.toContain('~');
  });
});
