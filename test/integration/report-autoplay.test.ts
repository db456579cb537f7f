// `skipper report` on a session produced by a real autoplay run (the bench captain: SessionRunner + runAutoplay on a
// turbo minimolt, SQLite file store): the report's figures agree with what the game itself counted, tick utilisation
// included (the report's own estimate against the server's busy ÷ alive).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, expect, it, vi } from 'vitest';
import { playCaptain, TRADE_CAPITAL } from '../../internal/bench/captain.js';
import { buildReport, formatReport, registerReportCommand } from '../../internal/cli/report.js';
import { createAutopilotProvider, createRandomProvider } from '../../internal/provider/builtin/index.js';
import { openStore } from '../../internal/store/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('reports an autopilot session: net worth up, every call ok, plots drawn, figures equal to the run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'skipper-report-'));
  dirs.push(dir);
  const path = join(dir, 'skipper.db');
  const store = await openStore({ path });
  const run = await playCaptain({
    provider: createAutopilotProvider({ seed: 3 }),
    scenario: 'grind',
    seed: 3,
    ticks: 80,
    store,
    sessionName: 'report-run',
  }).finally(() => store.close());
  expect(run.stopReason).toEqual({ code: 'max_ticks', limit: 80, text: 'reached --max-ticks 80' });

  const reopened = await openStore({ path });
  try {
    const report = await buildReport(reopened, 'report-run');
    expect(report.turns).toBe(run.turns);
    expect(report.toolCalls).toBe(run.toolCalls);
    expect(report.failedCalls).toBe(0);
    expect(report.points.at(-1)?.credits).toBe(run.creditsEnd);
    // The game's own net worth counts the hold at minimolt's base prices; the session's at the market bids it saw
    // (priced the same way in every view), the table only for items no market showed.
    expect(report.netWorthPricing).toBe('market');
    expect(report.points.at(-1)!.netWorth).toBeGreaterThanOrEqual(run.creditsEnd);
    expect(report.netWorthChange).toBeGreaterThan(0);
    expect(report.actions).toBeGreaterThan(10);
    // The report's utilisation is Skipper's estimate (the store keeps no server figures), counted over the ticks it
    // measures: never more busy ticks than ticks, and the same figure the game itself counted (busy ÷ alive).
    expect(report.utilisationSource).toBe('estimated');
    expect(report.actionTicks).toBeLessThanOrEqual(report.ticks);
    expect(run.tickUtilisation).not.toBeNull();
    expect(report.tickUtilisation!).toBeCloseTo(run.tickUtilisation!, 2);
    expect(report.tickUtilisation!).toBeGreaterThan(0.8);
    expect(report.usage.calls).toBeGreaterThan(0);
    const text = formatReport(report, { width: 72, color: false }).join('\n');
    expect(text).toContain('Report · report-run');
    expect(text).toContain(`→ ${report.points.at(-1)!.netWorth.toLocaleString('en-US')}`);
    expect(text).toContain("cargo at the game's market bids seen");
    expect(text).toMatch(/[\u2801-\u28ff]/);
    expect(text).toContain('Errors       none');
  } finally {
    await reopened.close();
  }

  // As a command: --home and --json after `report` reach it although skipper's program has them too.
  const root = new Command('skipper').option('--json').option('--home <dir>');
  root.exitOverride();
  const opened: Array<string | undefined> = [];
  registerReportCommand(root, {
    openStore: ({ home }) => {
      opened.push(home);
      return openStore({ path: join(home ?? '/nonexistent', 'skipper.db') });
    },
  });
  const printed: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await root.parseAsync(['node', 'skipper', 'report', 'report-run', '--home', dir, '--json']);
  } finally {
    vi.restoreAllMocks();
  }
  expect(opened).toEqual([dir]);
  // --json is snake_case, like every --json output.
  const data = JSON.parse(printed.join('')) as Record<string, any>;
  expect(data.tool_calls).toBe(run.toolCalls);
  expect(data.points.at(-1)?.net_worth).toBe(data.net_worth_end);
  expect(data.credits_end).toBe(run.creditsEnd);
  expect(data.net_worth_pricing).toBe('market');
});

it('trade starts with capital; random floor errors are counted by code the same way the loop counted them', async () => {
  const trade = await playCaptain({
    provider: createAutopilotProvider({ seed: 5 }),
    scenario: 'trade',
    seed: 5,
    ticks: 10,
  });
  expect(trade.creditsStart).toBe(TRADE_CAPITAL);
  expect(trade.netWorthStart).toBe(TRADE_CAPITAL);

  const store = await openStore({ path: ':memory:' });
  try {
    const run = await playCaptain({
      provider: createRandomProvider({ seed: 11 }),
      scenario: 'explore',
      seed: 11,
      ticks: 40,
      store,
      sessionName: 'random-run',
    });
    const report = await buildReport(store, 'random-run');
    expect(run.failedCalls).toBeGreaterThan(0);
    expect(report.errorsByCode).toEqual(run.errorsByCode);
    expect(run.successfulCalls + run.failedCalls).toBe(run.toolCalls);
    expect(run.leaks).toBe(0);
  } finally {
    await store.close();
  }
});
