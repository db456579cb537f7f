// The bench's two faces: on a terminal the table is padded into aligned columns (no Markdown pipes), while results.md
// stays Markdown; both list every run with its session name, the NAME `skipper report NAME --home OUT_DIR` takes.
import { describe, expect, it } from 'vitest';
import { benchMarkdown, benchText, type BenchResults } from '../../../internal/bench/bench.js';
import { alignedTable, scoreRuns } from '../../../internal/bench/score.js';
import type { CaptainResult } from '../../../internal/bench/captain.js';

function run(model: string, netWorthEnd: number, sessionName: string): CaptainResult {
  return {
    scenario: 'grind',
    model,
    seed: 42,
    sessionName,
    stopReason: { code: 'max_ticks', limit: 100, text: 'reached --max-ticks 100' },
    ticks: 100,
    turns: 12,
    actions: 30,
    netWorthStart: 150,
    netWorthEnd,
    creditsStart: 150,
    creditsEnd: netWorthEnd,
    systemsVisited: 2,
    systemsBeforeDeath: 1,
    deaths: 0,
    leaks: 0,
    toolCalls: 40,
    successfulCalls: 38,
    failedCalls: 2,
    invalidCalls: 1,
    errorsByCode: {},
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 },
    wallMs: 1500,
    tickUtilisation: 1,
    modelRequests: 0,
  };
}

function results(): BenchResults {
  const runs = [
    run('builtin/autopilot', 2150, 'bench-2026-11-24T20-00-00-000Z-grind-builtin-autopilot-1'),
    run('builtin/random', 160, 'bench-2026-11-24T20-00-00-000Z-grind-builtin-random-1'),
  ];
  return {
    version: 2,
    startedAt: '2026-11-24T20:00:00.000Z',
    seed: 42,
    ticks: 100,
    runs: 1,
    scenarios: ['grind'],
    models: ['builtin/random', 'builtin/autopilot'],
    notes: ['grind: net worth gained per 100 ticks'],
    results: runs,
    failures: [],
    scores: scoreRuns(runs),
  };
}

describe('bench report', () => {
  it('pads columns: names left, figures right, every row as wide as the header', () => {
    const lines = alignedTable(
      ['scenario', 'model', 'outcome'],
      [
        ['grind', 'builtin/autopilot', '2000.0'],
        ['grind', 'x', '9.5'],
      ],
    );
    expect(lines).toEqual([
      'scenario  model              outcome',
      '────────  ─────────────────  ───────',
      'grind     builtin/autopilot   2000.0',
      'grind     x                      9.5',
    ]);
  });

  it('the terminal text has aligned tables and no Markdown', () => {
    const text = benchText(results());
    expect(text).not.toContain('|');
    expect(text).not.toMatch(/^#/m);
    const lines = text.split('\n');
    const header = lines.findIndex((line) => line.startsWith('scenario  model'));
    expect(header).toBeGreaterThan(0);
    // The header, its rule and both rows end in the same column: right-aligned figures line up.
    const widths = lines.slice(header, header + 4).map((line) => line.length);
    expect(new Set(widths).size).toBe(1);
    expect(lines[header + 2]).toMatch(/^grind {5}builtin\/autopilot +2000\.0 +1\.00×/);
    expect(text).toContain('skipper report SESSION --home OUT_DIR');
    expect(text).toContain('bench-2026-11-24T20-00-00-000Z-grind-builtin-random-1');
    expect(benchText(results(), { out: '/tmp/bench/x' })).toContain('skipper report SESSION --home /tmp/bench/x');
  });

  it('results.md stays Markdown and names the session of every run', () => {
    const markdown = benchMarkdown(results());
    expect(markdown).toContain('| scenario | model | outcome / 100 ticks | × autopilot |');
    expect(markdown).toContain('## Runs');
    expect(markdown).toContain('| scenario | model | seed | ticks | net worth | session |');
    expect(markdown).toContain(
      '| grind | builtin/autopilot | 42 | 100 | 150 → 2150 | `bench-2026-11-24T20-00-00-000Z-grind-builtin-autopilot-1` |',
    );
    expect(markdown).toContain(
      '| grind | builtin/random | 42 | 100 | 150 → 160 | `bench-2026-11-24T20-00-00-000Z-grind-builtin-random-1` |',
    );
    expect(markdown).toContain('skipper report SESSION --home DIR');
  });
});
