// The budget governor's ladder: scripted costs on a fake clock walk captains down, the fleet cap moves them all, a
// new UTC day brings them back, and allowance() says how much the next stretch of autoplay may spend.
import { describe, expect, it } from 'vitest';
import { BudgetGovernor, targetStep, type GovernorCaptain } from '../../../internal/fleet/governor.js';

const full: Omit<GovernorCaptain, 'name'> = { hasFallback: true, canPlan: true, canAutopilot: true, isBuiltin: false };

function captain(name: string, fields: Partial<GovernorCaptain> = {}): GovernorCaptain {
  return { name, ...full, ...fields };
}

/** A clock the test moves by hand. */
function fakeClock(iso: string): { now: () => number; set: (iso: string) => void } {
  let time = Date.parse(iso);
  return {
    now: () => time,
    set: (next) => {
      time = Date.parse(next);
    },
  };
}

describe('BudgetGovernor: one captain and its own cap', () => {
  it('walks model → fallback → planner → autopilot as scripted costs cross 60%, 75% and 90%', () => {
    const clock = fakeClock('2026-11-26T10:00:00Z');
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 1 })], now: clock.now });
    expect(governor.step('a')).toBe('model');
    expect(governor.record('a', 0.3)).toEqual([]);
    expect(governor.record('a', 0.31)).toEqual([
      {
        captain: 'a',
        from: 'model',
        to: 'fallback',
        reason: 'spent $0.61 of $1.00 today (61%): steps down to its fallback model',
      },
    ]);
    expect(governor.record('a', 0.1)).toEqual([]);
    const planner = governor.record('a', 0.05);
    expect(planner.map((change) => [change.from, change.to])).toEqual([['fallback', 'planner']]);
    expect(planner[0]?.reason).toBe('spent $0.76 of $1.00 today (76%): steps down to planner mode');
    const autopilot = governor.record('a', 0.14);
    expect(autopilot.map((change) => [change.from, change.to])).toEqual([['planner', 'autopilot']]);
    expect(autopilot[0]?.reason).toBe('spent $0.90 of $1.00 today (90%): autopilot only');
    expect(governor.record('a', 0.5)).toEqual([]);
    expect(governor.step('a')).toBe('autopilot');
    expect(governor.spentToday('a')).toBeCloseTo(1.4, 9);
  });

  it('reaches a threshold made of many small float costs (0.1 + 0.2 + 0.3 is 60%)', () => {
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 1 })], now: () => 0 });
    governor.record('a', 0.1);
    governor.record('a', 0.2);
    expect(governor.record('a', 0.3).map((change) => change.to)).toEqual(['fallback']);
  });

  it('skips a missing fallback: at 60% it goes straight to planner mode', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 1, hasFallback: false })],
      now: () => 0,
    });
    expect(governor.record('a', 0.6).map((change) => [change.from, change.to])).toEqual([['model', 'planner']]);
  });

  it('skips planner mode for a captain that cannot plan', () => {
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 1, canPlan: false })], now: () => 0 });
    expect(governor.record('a', 0.6).map((change) => change.to)).toEqual(['fallback']);
    expect(governor.record('a', 0.2).map((change) => [change.from, change.to])).toEqual([['fallback', 'autopilot']]);
  });

  it('with neither fallback nor planner, 60% means the autopilot', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 2, hasFallback: false, canPlan: false })],
      now: () => 0,
    });
    expect(governor.record('a', 1.2).map((change) => change.to)).toEqual(['autopilot']);
  });

  it('ends parked when the autopilot is not an option (at 90%, and stays parked past 100%)', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 1, canAutopilot: false })],
      now: () => 0,
    });
    governor.record('a', 0.8);
    expect(governor.step('a')).toBe('planner');
    const parked = governor.record('a', 0.1);
    expect(parked.map((change) => change.to)).toEqual(['parked']);
    expect(parked[0]?.reason).toBe('spent $0.90 of $1.00 today (90%): parked until the next UTC day');
    expect(governor.record('a', 0.5)).toEqual([]);
    expect(governor.allowance('a')).toBe(0);
  });

  it('jumps several steps at once when one cost crosses several thresholds', () => {
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 1 })], now: () => 0 });
    expect(governor.record('a', 0.95)).toEqual([
      { captain: 'a', from: 'model', to: 'autopilot', reason: 'spent $0.95 of $1.00 today (95%): autopilot only' },
    ]);
  });

  it('a builtin captain costs nothing and stays on its model', () => {
    const governor = new BudgetGovernor({
      captains: [captain('bot', { budgetUsd: 1, isBuiltin: true })],
      now: () => 0,
    });
    expect(governor.record('bot', 5)).toEqual([]);
    expect(governor.step('bot')).toBe('model');
    expect(governor.allowance('bot')).toBe(Infinity);
  });

  it('ignores negative and non-finite costs', () => {
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 1 })], now: () => 0 });
    governor.record('a', -3);
    governor.record('a', Number.NaN);
    governor.record('a', Infinity);
    expect(governor.spentToday('a')).toBe(0);
  });

  it('refuses an unknown captain name and thresholds that do not rise', () => {
    const governor = new BudgetGovernor({ captains: [captain('a')], now: () => 0 });
    expect(() => governor.record('zed', 1)).toThrow(/no captain "zed"/);
    expect(
      () => new BudgetGovernor({ captains: [], thresholds: { fallback: 0.8, planner: 0.7, autopilot: 0.9 } }),
    ).toThrow(/must rise/);
  });
});

describe('BudgetGovernor: the fleet cap', () => {
  it('moves every captain when the fleet total crosses a threshold, and names the fleet money', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a'), captain('b', { hasFallback: false }), captain('bot', { isBuiltin: true })],
      fleetBudgetUsd: 5,
      now: () => 0,
    });
    expect(governor.record('a', 2)).toEqual([]);
    const sixty = governor.record('b', 1.1);
    expect(sixty.map((change) => [change.captain, change.to])).toEqual([
      ['a', 'fallback'],
      ['b', 'planner'],
    ]);
    expect(sixty[0]?.reason).toBe('fleet spent $3.10 of $5.00 today (62%): steps down to its fallback model');
    const ninety = governor.record('a', 1.42);
    expect(ninety.map((change) => [change.captain, change.from, change.to])).toEqual([
      ['a', 'fallback', 'autopilot'],
      ['b', 'planner', 'autopilot'],
    ]);
    expect(ninety[0]?.reason).toBe('fleet spent $4.52 of $5.00 today (90%): autopilot only');
    expect(governor.fleetSpentToday()).toBeCloseTo(4.52, 9);
    expect(governor.step('bot')).toBe('model');
  });

  it('names whichever cap is tighter: the captain’s own before the fleet’s', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 1 }), captain('b')],
      fleetBudgetUsd: 10,
      now: () => 0,
    });
    const changes = governor.record('a', 0.7);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.reason).toMatch(/^spent \$0\.70 of \$1\.00 today \(70%\)/);
    expect(governor.step('b')).toBe('model');
  });
});

describe('BudgetGovernor: days', () => {
  it('never steps back up within a day, even when a restore says less was spent', () => {
    const clock = fakeClock('2026-11-26T10:00:00Z');
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 1 })], now: clock.now });
    governor.record('a', 0.8);
    expect(governor.step('a')).toBe('planner');
    expect(governor.restore('a', { costToday: 0.1, costDay: '2026-11-26' })).toBeUndefined();
    expect(governor.step('a')).toBe('planner');
    expect(governor.spentToday('a')).toBe(0.1);
    expect(governor.record('a', 0.01)).toEqual([]);
    expect(governor.step('a')).toBe('planner');
  });

  it('at UTC midnight spending resets and every captain goes back to its model', () => {
    const clock = fakeClock('2026-11-26T23:59:59.999Z');
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 1 }), captain('b', { budgetUsd: 1 })],
      now: clock.now,
    });
    governor.record('a', 0.95);
    expect(governor.rollover()).toEqual([]);
    expect(governor.day()).toBe('2026-11-26');
    clock.set('2026-11-27T00:00:00Z');
    expect(governor.day()).toBe('2026-11-27');
    expect(governor.rollover()).toEqual([
      { captain: 'a', from: 'autopilot', to: 'model', reason: 'a new day (2026-11-27 UTC): back to its model' },
    ]);
    expect(governor.spentToday('a')).toBe(0);
    expect(governor.step('a')).toBe('model');
    expect(governor.rollover()).toEqual([]);
  });

  it('record() applies the rollover first and returns its changes with its own', () => {
    const clock = fakeClock('2026-11-26T12:00:00Z');
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 1 })], now: clock.now });
    governor.record('a', 0.65);
    clock.set('2026-11-27T01:00:00Z');
    const changes = governor.record('a', 0.8);
    expect(changes.map((change) => [change.from, change.to])).toEqual([
      ['fallback', 'model'],
      ['model', 'planner'],
    ]);
    expect(governor.spentToday('a')).toBe(0.8);
  });

  it('restore counts today’s cost and steps down; yesterday’s costDay counts 0', () => {
    const clock = fakeClock('2026-11-26T08:00:00Z');
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 1 }), captain('b', { budgetUsd: 1 })],
      now: clock.now,
    });
    expect(governor.restore('a', { costToday: 0.62, costDay: '2026-11-26' })).toEqual({
      captain: 'a',
      from: 'model',
      to: 'fallback',
      reason: 'spent $0.62 of $1.00 today (62%): steps down to its fallback model',
    });
    expect(governor.restore('b', { costToday: 0.95, costDay: '2026-11-25' })).toBeUndefined();
    expect(governor.spentToday('b')).toBe(0);
    expect(governor.step('b')).toBe('model');
  });

  it('reviewAll moves a captain restored before the fleet total grew', () => {
    const governor = new BudgetGovernor({ captains: [captain('a'), captain('b')], fleetBudgetUsd: 1, now: () => 0 });
    const day = governor.day();
    expect(governor.restore('a', { costToday: 0.1, costDay: day })).toBeUndefined();
    expect(governor.restore('b', { costToday: 0.6, costDay: day })?.to).toBe('fallback');
    expect(governor.step('a')).toBe('model');
    expect(governor.reviewAll().map((change) => [change.captain, change.to])).toEqual([['a', 'fallback']]);
  });
});

describe('BudgetGovernor: allowance', () => {
  it('is Infinity with no cap anywhere', () => {
    const governor = new BudgetGovernor({ captains: [captain('a')], now: () => 0 });
    governor.record('a', 100);
    expect(governor.allowance('a')).toBe(Infinity);
    expect(governor.step('a')).toBe('model');
  });

  it('is the USD to the next threshold that would move the captain', () => {
    const governor = new BudgetGovernor({ captains: [captain('a', { budgetUsd: 2 })], now: () => 0 });
    expect(governor.allowance('a')).toBeCloseTo(1.2, 9);
    governor.record('a', 0.5);
    expect(governor.allowance('a')).toBeCloseTo(0.7, 9);
    governor.record('a', 0.8);
    expect(governor.step('a')).toBe('fallback');
    expect(governor.allowance('a')).toBeCloseTo(0.2, 9);
    governor.record('a', 0.3);
    expect(governor.step('a')).toBe('planner');
    expect(governor.allowance('a')).toBeCloseTo(0.2, 9);
    governor.record('a', 0.15);
    expect(governor.allowance('a')).toBeCloseTo(0.05, 9);
  });

  it('skips thresholds that would not move it (no fallback: 60% moves it to planner, 75% changes nothing, next is 90%)', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 1, hasFallback: false })],
      now: () => 0,
    });
    expect(governor.allowance('a')).toBeCloseTo(0.6, 9);
    governor.record('a', 0.6);
    expect(governor.step('a')).toBe('planner');
    expect(governor.allowance('a')).toBeCloseTo(0.3, 9);
  });

  it('takes the smaller room of the captain’s cap and the fleet’s', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 10 }), captain('b')],
      fleetBudgetUsd: 4,
      now: () => 0,
    });
    governor.record('b', 2);
    // Own cap: 6.00 to its 60%; fleet: 2.40 − 2.00 = 0.40.
    expect(governor.allowance('a')).toBeCloseTo(0.4, 9);
  });

  it('an autopilot captain that may stay on the autopilot has no further step to fear; past its cap never below 0 while parked', () => {
    const governor = new BudgetGovernor({
      captains: [captain('a', { budgetUsd: 1 }), captain('p', { budgetUsd: 1, canAutopilot: false })],
      now: () => 0,
    });
    governor.record('a', 0.95);
    expect(governor.allowance('a')).toBe(Infinity);
    governor.record('p', 3);
    expect(governor.allowance('p')).toBe(0);
  });
});

describe('targetStep', () => {
  const thresholds = { fallback: 0.6, planner: 0.75, autopilot: 0.9 };
  it.each([
    [0, 'every step', 'model', full],
    [0.59, 'every step', 'model', full],
    [0.6, 'every step', 'fallback', full],
    [0.75, 'every step', 'planner', full],
    [0.9, 'every step', 'autopilot', full],
    [1.5, 'every step', 'autopilot', full],
    [0.6, 'no fallback', 'planner', { ...full, hasFallback: false }],
    [0.75, 'no planner', 'autopilot', { ...full, canPlan: false }],
    [0.74, 'no planner', 'fallback', { ...full, canPlan: false }],
    [0.9, 'no autopilot', 'parked', { ...full, canAutopilot: false }],
    [1, 'no autopilot', 'parked', { ...full, canAutopilot: false }],
    [0.99, 'builtin', 'model', { ...full, isBuiltin: true }],
  ] as const)('at %s of the cap, %s → %s', (fraction, _label, expected, fields) => {
    expect(targetStep(fraction, { name: 'x', ...fields }, thresholds)).toBe(expected);
  });
});
