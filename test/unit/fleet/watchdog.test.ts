// The fleet watchdog on plain data: each problem found at its threshold and not before, the ladder (nudge, re-plan,
// autopilot, park) climbed with grace between rungs and rungs skipped per captain, recovery said once, parking final,
// a restart continuing from the stored step, and a healthy captain left alone.
import { describe, expect, it } from 'vitest';
import type { WatchdogAction } from '../../../internal/fleet/types.js';
import {
  nextRung,
  Watchdog,
  watchLimits,
  type WatchdogOptions,
  type WatchEvent,
} from '../../../internal/fleet/watchdog.js';

/** Ten seconds a tick: grace by ticks (5 = 50 s) comes before grace by wall time (60 s) unless a test stops the ticks. */
const TICK_MS = 10_000;
const at = (tick: number): number => tick * TICK_MS;

function watchdog(options: Partial<WatchdogOptions> = {}): Watchdog {
  return new Watchdog(
    { canReplan: true, canAutopilot: true, isAutopilot: () => false, ...options },
    { tick: 0, at: 0 },
  );
}

function action(tick: number, name = 'mine', args = '{}', ok = true): WatchEvent {
  return { type: 'call', name, args, action: true, ok, tick, at: at(tick) };
}

function query(tick: number, name = 'get_status', args = '{}'): WatchEvent {
  return { type: 'call', name, args, action: false, ok: true, tick, at: at(tick) };
}

/** check() at every tick from `from` to `to` (inclusive), the actions it returned with their ticks. */
function checks(dog: Watchdog, from: number, to: number): { tick: number; action: WatchdogAction }[] {
  const out: { tick: number; action: WatchdogAction }[] = [];
  for (let tick = from; tick <= to; tick++) {
    const action = dog.check(at(tick), tick);
    if (action) out.push({ tick, action });
  }
  return out;
}

const kinds = (list: { tick: number; action: WatchdogAction }[]): string[] =>
  list.map(({ tick, action }) => `${tick}:${action.kind}`);

describe('each problem at its threshold, not one tick or ms before', () => {
  it('no game action: 19 ticks is fine, 20 is a nudge naming the figure and what to do', () => {
    const dog = watchdog();
    expect(dog.check(at(19), 19)).toBeUndefined();
    expect(dog.problem(at(19), 19)).toBeUndefined();
    const nudge = dog.check(at(20), 20);
    expect(nudge).toEqual({
      kind: 'nudge',
      reason: 'no game action for 20 ticks',
      text: 'Watchdog: no game action for 20 ticks. Take an action now: travel, mine, sell or dock.',
    });
    expect(dog.step).toBe('nudged');
  });

  it('no game action: queries and failed actions are not actions; a successful one restarts the count', () => {
    const dog = watchdog();
    dog.observe(query(3));
    dog.observe(action(5, 'travel', '{"to":"x"}', false));
    expect(dog.check(at(20), 20)?.kind).toBe('nudge');

    const other = watchdog();
    other.observe(action(7));
    expect(other.check(at(26), 26)).toBeUndefined();
    expect(other.problem(at(27), 27)).toBe('no game action for 20 ticks');
  });

  it('flat credits: an hour unchanged, counted from when they last moved', () => {
    const dog = watchdog();
    dog.observe({ type: 'state', tick: 0, at: 0, credits: 100 });
    expect(dog.check(3_599_999, 0)).toBeUndefined();
    expect(dog.check(3_600_000, 0)).toMatchObject({
      kind: 'nudge',
      reason: 'credits unchanged at 100 for 60 min',
    });

    const moved = watchdog();
    moved.observe({ type: 'state', tick: 0, at: 0, credits: 100 });
    moved.observe({ type: 'state', tick: 0, at: 1_000_000, credits: 100 });
    moved.observe({ type: 'state', tick: 0, at: 2_000_000, credits: 150 });
    expect(moved.check(5_599_999, 0)).toBeUndefined();
    expect(moved.check(5_600_000, 0)?.reason).toBe('credits unchanged at 150 for 60 min');
  });

  it('flat credits: never told the credits, never a problem', () => {
    const dog = watchdog();
    dog.observe({ type: 'state', tick: 0, at: 0, fuel: 50, maxFuel: 100 });
    expect(dog.check(10 * 3_600_000, 0)).toBeUndefined();
  });

  it('the same call: 5 times is fine, the 6th is a nudge naming the call', () => {
    const dog = watchdog();
    for (let i = 0; i < 5; i++) dog.observe(query(1));
    expect(dog.check(at(1), 1)).toBeUndefined();
    dog.observe(query(1));
    const nudge = dog.check(at(1), 1);
    expect(nudge?.reason).toBe('the same call get_status {} 6 times in a row');
    expect(nudge?.kind === 'nudge' && nudge.text).toContain('Stop repeating it');
  });

  it('the same call: any different call resets the count, other args are another call', () => {
    const dog = watchdog();
    for (let i = 0; i < 5; i++) dog.observe(query(1));
    dog.observe(query(1, 'get_cargo'));
    for (let i = 0; i < 5; i++) dog.observe(query(1));
    dog.observe(query(1, 'get_status', '{"full":true}'));
    expect(dog.check(at(1), 1)).toBeUndefined();
  });

  it('the same call: a failed action repeated counts, a successful one is progress and does not', () => {
    const failing = watchdog();
    for (let i = 1; i <= 6; i++) failing.observe(action(i, 'jump', '{"to":"sol"}', false));
    expect(failing.check(at(6), 6)?.reason).toBe('the same call jump {"to":"sol"} 6 times in a row');

    const mining = watchdog();
    for (let i = 1; i <= 30; i++) mining.observe(action(i));
    expect(mining.check(at(30), 30)).toBeUndefined();
  });

  it('fuel: at 10% the nudge says dock and refuel; 11% is fine', () => {
    const dog = watchdog();
    dog.observe({ type: 'state', tick: 1, at: at(1), fuel: 11, maxFuel: 100 });
    expect(dog.check(at(1), 1)).toBeUndefined();
    dog.observe({ type: 'state', tick: 2, at: at(2), fuel: 10 });
    const nudge = dog.check(at(2), 2);
    expect(nudge).toEqual({
      kind: 'nudge',
      reason: 'fuel at 10 of 100 (10%)',
      text: 'Watchdog: fuel at 10 of 100 (10%). Dock and refuel now.',
    });
  });

  it('hull: at 25% the nudge says dock and repair; 26% is fine; no maximum known, no judgement', () => {
    const dog = watchdog();
    dog.observe({ type: 'state', tick: 1, at: at(1), hull: 26, maxHull: 100 });
    expect(dog.check(at(1), 1)).toBeUndefined();
    dog.observe({ type: 'state', tick: 2, at: at(2), hull: 25, maxHull: 100 });
    const nudge = dog.check(at(2), 2);
    expect(nudge?.reason).toBe('hull at 25 of 100 (25%)');
    expect(nudge?.kind === 'nudge' && nudge.text).toContain('Dock and repair');

    const blind = watchdog();
    blind.observe({ type: 'state', tick: 1, at: at(1), hull: 1 });
    blind.observe({ type: 'state', tick: 1, at: at(1), hull: 1, maxHull: 0, fuel: Number.NaN, maxFuel: 100 });
    expect(blind.check(at(1), 1)).toBeUndefined();
  });

  it('a stuck turn: found at the timeout, and it skips the nudge (the turn could not read it)', () => {
    const dog = watchdog();
    dog.observe({ type: 'turn-start', at: 1_000 });
    dog.observe(action(0));
    expect(dog.check(300_999, 0)).toBeUndefined();
    expect(dog.check(301_000, 0)).toEqual({ kind: 'replan', reason: 'a turn running for 5 min without ending' });
    expect(dog.step).toBe('replanned');
  });

  it('a stuck turn without re-plan starts at the autopilot, and without either at park', () => {
    const noPlan = watchdog({ canReplan: false });
    noPlan.observe({ type: 'turn-start', at: 0 });
    expect(noPlan.check(300_000, 0)?.kind).toBe('autopilot');

    const nothing = watchdog({ canReplan: false, canAutopilot: false });
    nothing.observe({ type: 'turn-start', at: 0 });
    expect(nothing.check(300_000, 0)?.kind).toBe('park');
  });

  it('a turn that ended is no problem, however long ago it started', () => {
    const dog = watchdog();
    dog.observe({ type: 'turn-start', at: 0 });
    dog.observe({ type: 'turn-end', at: 200_000 });
    expect(dog.check(1_000_000, 0)).toBeUndefined();
  });
});

describe('the ladder', () => {
  it('nudge, re-plan, autopilot, park, each graceTicks after the last, then nothing more', () => {
    const dog = watchdog();
    expect(kinds(checks(dog, 0, 200))).toEqual(['20:nudge', '25:replan', '30:autopilot', '35:park']);
    expect(dog.step).toBe('parked');
  });

  it('grace by wall time comes first when the ticks stall', () => {
    const dog = watchdog();
    expect(dog.check(at(20), 20)?.kind).toBe('nudge');
    expect(dog.check(at(20) + 59_999, 20)).toBeUndefined();
    expect(dog.check(at(20) + 60_000, 20)?.kind).toBe('replan');
    expect(dog.check(at(20) + 119_999, 21)).toBeUndefined();
    expect(dog.check(at(20) + 120_000, 21)?.kind).toBe('autopilot');
  });

  it('each action names the figure as it stands then, on one line', () => {
    const dog = watchdog();
    const taken = checks(dog, 0, 40).map(({ action }) => action.reason);
    expect(taken).toEqual([
      'no game action for 20 ticks',
      'no game action for 25 ticks',
      'no game action for 30 ticks',
      'no game action for 35 ticks',
    ]);

    const long = watchdog();
    const args = `{"text":"${'a'.repeat(200)}\n${'b'.repeat(10)}"}`;
    for (let i = 0; i < 6; i++) long.observe(query(1, 'chat', args));
    const reason = long.check(at(1), 1)?.reason ?? '';
    expect(reason).not.toContain('\n');
    expect(reason.length).toBeLessThan(160);
  });

  it('no re-plan without planner mode: nudge, autopilot, park', () => {
    expect(kinds(checks(watchdog({ canReplan: false }), 0, 100))).toEqual(['20:nudge', '25:autopilot', '30:park']);
  });

  it('no autopilot step when the game has none or the autopilot flies already', () => {
    expect(kinds(checks(watchdog({ canAutopilot: false }), 0, 100))).toEqual(['20:nudge', '25:replan', '30:park']);
    expect(kinds(checks(watchdog({ isAutopilot: () => true }), 0, 100))).toEqual(['20:nudge', '25:replan', '30:park']);
    const bare = watchdog({ canReplan: false, canAutopilot: false });
    expect(kinds(checks(bare, 0, 100))).toEqual(['20:nudge', '25:park']);
  });

  it('isAutopilot is asked when the step is taken, not when the watchdog was made', () => {
    let flying = false;
    const dog = watchdog({ isAutopilot: () => flying });
    expect(kinds(checks(dog, 0, 25))).toEqual(['20:nudge', '25:replan']);
    flying = true;
    expect(kinds(checks(dog, 26, 100))).toEqual(['30:park']);
  });

  it('the most urgent problem goes first; when it clears, the next one starts its own ladder', () => {
    const dog = watchdog();
    dog.observe({ type: 'state', tick: 0, at: 0, fuel: 5, maxFuel: 100 });
    expect(dog.problem(at(20), 20)).toBe('fuel at 5 of 100 (5%)');
    expect(dog.check(at(20), 20)?.reason).toBe('fuel at 5 of 100 (5%)');
    dog.observe({ type: 'state', tick: 21, at: at(21), fuel: 100 });
    expect(dog.check(at(21), 21)).toEqual({ kind: 'recovered', reason: 'cleared after nudged: fuel at 5 of 100 (5%)' });
    expect(dog.check(at(21), 21)).toEqual({
      kind: 'nudge',
      reason: 'no game action for 21 ticks',
      text: 'Watchdog: no game action for 21 ticks. Take an action now: travel, mine, sell or dock.',
    });
  });

  it('nextRung as a table', () => {
    const all = { canReplan: true, canAutopilot: true, autopilotAlready: false };
    expect(nextRung('ok', 'no-action', all)).toBe('nudged');
    expect(nextRung('nudged', 'no-action', all)).toBe('replanned');
    expect(nextRung('replanned', 'fuel', all)).toBe('autopilot');
    expect(nextRung('autopilot', 'fuel', all)).toBe('parked');
    expect(nextRung('ok', 'stuck-turn', all)).toBe('replanned');
    expect(nextRung('ok', 'stuck-turn', { ...all, canReplan: false })).toBe('autopilot');
    expect(nextRung('nudged', 'repeat', { ...all, canReplan: false, autopilotAlready: true })).toBe('parked');
    expect(nextRung('parked', 'repeat', all)).toBe('parked');
  });
});

describe('recovery', () => {
  it('an action after a nudge: recovered once, back to ok, and a new problem starts again at the nudge', () => {
    const dog = watchdog();
    expect(dog.check(at(20), 20)?.kind).toBe('nudge');
    dog.observe(action(22));
    expect(dog.check(at(22), 22)).toEqual({
      kind: 'recovered',
      reason: 'cleared after nudged: no game action for 20 ticks',
    });
    expect(dog.step).toBe('ok');
    expect(dog.check(at(23), 23)).toBeUndefined();
    expect(kinds(checks(dog, 24, 47))).toEqual(['42:nudge', '47:replan']);
  });

  it('after a re-plan: the calls stop repeating, recovered once', () => {
    const dog = watchdog();
    for (let i = 0; i < 6; i++) dog.observe(query(1));
    expect(dog.check(at(1), 1)?.kind).toBe('nudge');
    dog.observe(query(2));
    expect(dog.check(at(6), 6)?.kind).toBe('replan');
    dog.observe(query(7, 'get_cargo'));
    expect(dog.check(at(7), 7)?.kind).toBe('recovered');
    expect(dog.step).toBe('ok');
    expect(dog.check(at(8), 8)).toBeUndefined();
  });

  it('credits that move again, or a turn that ends, clear their problem', () => {
    const credits = watchdog();
    credits.observe({ type: 'state', tick: 0, at: 0, credits: 10 });
    expect(credits.check(3_600_000, 0)?.kind).toBe('nudge');
    credits.observe({ type: 'state', tick: 0, at: 3_600_001, credits: 11 });
    expect(credits.check(3_600_002, 0)?.kind).toBe('recovered');

    const turn = watchdog();
    turn.observe({ type: 'turn-start', at: 0 });
    expect(turn.check(300_000, 0)?.kind).toBe('replan');
    turn.observe({ type: 'turn-end', at: 300_001 });
    expect(turn.check(300_002, 0)).toEqual({
      kind: 'recovered',
      reason: 'cleared after replanned: a turn running for 5 min without ending',
    });
  });

  it('after the autopilot took over: no recovered, the step stays for the runner to decide', () => {
    const dog = watchdog({ canReplan: false });
    expect(kinds(checks(dog, 0, 25))).toEqual(['20:nudge', '25:autopilot']);
    dog.observe(action(26));
    expect(checks(dog, 26, 40)).toEqual([]);
    expect(dog.step).toBe('autopilot');
  });

  it('after the autopilot: a new problem gets its grace from when it was found before parking', () => {
    const dog = watchdog({ canReplan: false });
    expect(kinds(checks(dog, 0, 25))).toEqual(['20:nudge', '25:autopilot']);
    dog.observe(action(26));
    expect(checks(dog, 26, 45)).toEqual([]);
    expect(kinds(checks(dog, 46, 60))).toEqual(['51:park']);
  });

  it('parked is final: the problem going away changes nothing', () => {
    const dog = watchdog({ canReplan: false, canAutopilot: false });
    expect(kinds(checks(dog, 0, 25))).toEqual(['20:nudge', '25:park']);
    dog.observe(action(26));
    expect(checks(dog, 26, 500)).toEqual([]);
    expect(dog.step).toBe('parked');
    expect(dog.problem(at(26), 26)).toBeUndefined();
  });

  it('parked, then restored to ok by the runner: watched again from there', () => {
    const dog = watchdog({ canReplan: false, canAutopilot: false });
    expect(kinds(checks(dog, 0, 25))).toEqual(['20:nudge', '25:park']);
    dog.restore('ok');
    expect(dog.check(at(26), 26)?.kind).toBe('nudge');
  });
});

describe('restore after a restart', () => {
  it("restore('nudged') continues at the re-plan, with grace from when the problem is found", () => {
    const dog = watchdog();
    dog.restore('nudged');
    expect(dog.step).toBe('nudged');
    expect(kinds(checks(dog, 0, 40))).toEqual(['25:replan', '30:autopilot', '35:park']);
  });

  it("restore('replanned') with the problem clearing: recovered once", () => {
    const dog = watchdog();
    dog.restore('replanned');
    expect(checks(dog, 0, 20)).toEqual([]);
    dog.observe(action(21));
    expect(dog.check(at(21), 21)).toEqual({
      kind: 'recovered',
      reason: 'cleared after replanned: no game action for 20 ticks',
    });
  });

  it('a restored rung with no problem for a whole no-action window is recovered', () => {
    const dog = watchdog();
    dog.restore('nudged');
    const found: string[] = [];
    for (let tick = 0; tick <= 40; tick++) {
      dog.observe(action(tick));
      const taken = dog.check(at(tick), tick);
      if (taken) found.push(`${tick}:${taken.kind}:${taken.reason}`);
    }
    expect(found).toEqual(['20:recovered:no problem for 20 ticks since the restart (was nudged)']);
    expect(dog.step).toBe('ok');
  });

  it("restore('autopilot') and restore('parked') stay", () => {
    const flying = watchdog();
    flying.restore('autopilot');
    for (let tick = 1; tick <= 40; tick++) {
      flying.observe(action(tick));
      expect(flying.check(at(tick), tick)).toBeUndefined();
    }
    expect(flying.step).toBe('autopilot');
    expect(kinds(checks(flying, 41, 80))).toEqual(['65:park']);

    const parked = watchdog();
    parked.restore('parked');
    expect(checks(parked, 0, 100)).toEqual([]);
  });

  it('a step the store should not hold is refused with the ones it takes', () => {
    expect(() => watchdog().restore('sleeping' as never)).toThrow(/cannot restore step "sleeping".*ok, nudged/);
  });
});

describe('options', () => {
  it('defaults as the brief gives them', () => {
    expect(watchLimits({ canReplan: false, canAutopilot: false, isAutopilot: () => false })).toEqual({
      noActionTicks: 20,
      flatCreditsMs: 3_600_000,
      repeatLimit: 6,
      fuelCritical: 0.1,
      hullCritical: 0.25,
      turnTimeoutMs: 300_000,
      graceTicks: 5,
      graceMs: 60_000,
    });
  });

  it('custom thresholds are used', () => {
    const dog = watchdog({ noActionTicks: 3, graceTicks: 1 });
    expect(kinds(checks(dog, 0, 10))).toEqual(['3:nudge', '4:replan', '5:autopilot', '6:park']);
  });

  it('a bad figure is refused with what to write instead', () => {
    expect(() => watchdog({ noActionTicks: 0 })).toThrow(/noActionTicks must be a number above 0 \(got 0\)/);
    expect(() => watchdog({ fuelCritical: 1.5 })).toThrow(/fuelCritical must be a fraction/);
    expect(() => watchdog({ graceMs: -1 })).toThrow(/graceMs must be a number 0 or above/);
    expect(() => watchdog({ repeatLimit: Number.NaN })).toThrow(/repeatLimit.*leave it out for 6/);
  });
});

describe('a healthy captain', () => {
  it('acting every tick for 1000 ticks, trading now and then, gets no action at all', () => {
    const dog = watchdog();
    let credits = 1_000;
    let fuel = 100;
    const taken: string[] = [];
    for (let tick = 1; tick <= 1000; tick++) {
      dog.observe({ type: 'turn-start', at: at(tick) });
      dog.observe(query(tick));
      dog.observe(query(tick));
      const midTurn = dog.check(at(tick) + 5_000, tick);
      dog.observe(action(tick, tick % 10 === 0 ? 'sell' : 'mine'));
      if (tick % 10 === 0) credits += 50;
      fuel = tick % 50 === 0 ? 100 : fuel - 1;
      dog.observe({ type: 'state', tick, at: at(tick), credits, fuel, maxFuel: 100, hull: 90, maxHull: 100 });
      dog.observe({ type: 'turn-end', at: at(tick) + 9_000 });
      const endTurn = dog.check(at(tick) + 9_500, tick);
      for (const found of [midTurn, endTurn]) if (found) taken.push(`${tick}:${found.kind}:${found.reason}`);
    }
    expect(taken).toEqual([]);
    expect(dog.step).toBe('ok');
  });
});
