// The alert rules as a table of facts in and alerts out: each alert fires once per captain per episode and is re-armed
// when its condition clears; thresholds and per-captain rules hold; links point at the captain's turn.
import { describe, expect, it } from 'vitest';
import {
  AlertEngine,
  alertLink,
  allAlertRules,
  type AlertConfig,
  type AlertFact,
} from '../../../internal/fleet/alerts.js';

function engine(config: Partial<AlertConfig> = {}): AlertEngine {
  return new AlertEngine({
    fleet: 'miners',
    config: { rules: allAlertRules(), format: 'json', ...config },
    now: () => 1_700_000_000_000,
  });
}

/** The rules of the alerts the facts raise, in order. */
function run(alerts: AlertEngine, facts: AlertFact[]): string[] {
  return facts.flatMap((fact) => alerts.observe(fact).map((alert) => `${alert.captain}:${alert.rule}`));
}

describe('alert rules', () => {
  it('parked fires once per episode, is re-armed when the captain plays again, and links to its turn', () => {
    const alerts = engine();
    alerts.observe({ type: 'turn-start', captain: 'ada', turn: 7 });
    const first = alerts.observe({ type: 'state', captain: 'ada', state: 'parked', note: 'parked by the watchdog: x' });
    expect(first).toEqual([
      {
        type: 'alert',
        rule: 'parked',
        captain: 'ada',
        fleet: 'miners',
        text: 'parked by the watchdog: x',
        at: 1_700_000_000_000,
        turn: 7,
        link: '/#captain=ada&turn=7',
      },
    ]);
    // Still parked: the same state again, or a second park while parked, raises nothing.
    expect(run(alerts, [{ type: 'state', captain: 'ada', state: 'parked' }])).toEqual([]);
    expect(
      run(alerts, [
        { type: 'state', captain: 'ada', state: 'playing' },
        { type: 'state', captain: 'ada', state: 'parked', note: 'parked by order' },
      ]),
    ).toEqual(['ada:parked']);
    // Another captain has its own episode.
    expect(run(alerts, [{ type: 'state', captain: 'bob', state: 'parked' }])).toEqual(['bob:parked']);
  });

  it('a captain restored parked or finished by a new process is not alerted again; leaving the state re-arms it', () => {
    const alerts = engine();
    alerts.restore('ada', 'parked');
    alerts.restore('bob', 'finished');
    expect(
      run(alerts, [
        { type: 'state', captain: 'ada', state: 'parked', note: 'parked by order' },
        { type: 'state', captain: 'bob', state: 'finished' },
      ]),
    ).toEqual([]);
    expect(
      run(alerts, [
        { type: 'state', captain: 'ada', state: 'playing' },
        { type: 'state', captain: 'ada', state: 'parked', note: 'parked by the watchdog: x' },
      ]),
    ).toEqual(['ada:parked']);
    // A captain restored playing is alerted when it parks.
    alerts.restore('cyd', 'playing');
    expect(run(alerts, [{ type: 'state', captain: 'cyd', state: 'parked' }])).toEqual(['cyd:parked']);
  });

  it('stalled counts ticks without an action while playing; an action re-arms it', () => {
    const alerts = engine({ rules: [{ rule: 'stalled', ticks: 10 }] });
    const progress = (tick: number, actions: number, state: 'playing' | 'parked' = 'playing'): AlertFact => ({
      type: 'progress',
      captain: 'ada',
      tick,
      actions,
      state,
    });
    expect(run(alerts, [progress(100, 3), progress(109, 3)])).toEqual([]);
    expect(run(alerts, [progress(110, 3), progress(111, 3), progress(130, 3)])).toEqual(['ada:stalled']);
    // It acts: the next stall is a new episode, counted from the action.
    expect(run(alerts, [progress(131, 4), progress(140, 4)])).toEqual([]);
    expect(run(alerts, [progress(141, 4)])).toEqual(['ada:stalled']);
    // Parked time is not stalling; back to play, the count starts again.
    expect(run(alerts, [progress(150, 5, 'parked'), progress(400, 5, 'parked'), progress(401, 5)])).toEqual([]);
    expect(run(alerts, [progress(410, 5)])).toEqual([]);
    expect(run(alerts, [progress(411, 5)])).toEqual(['ada:stalled']);
  });

  it('error streak fires at N failed turns in a row, once, and a good turn re-arms it', () => {
    const alerts = engine({ rules: [{ rule: 'error_streak', turns: 2 }] });
    const turn = (n: number, failed: boolean): AlertFact => ({ type: 'turn-end', captain: 'ada', turn: n, failed });
    expect(run(alerts, [turn(1, true), turn(2, false), turn(3, true)])).toEqual([]);
    expect(run(alerts, [turn(4, true), turn(5, true), turn(6, true)])).toEqual(['ada:error_streak']);
    expect(run(alerts, [turn(7, false), turn(8, true), turn(9, true)])).toEqual(['ada:error_streak']);
  });

  it('budget step fires once per step reached; the day rolling over (back to the model) re-arms it', () => {
    const alerts = engine();
    const step = (from: 'model' | 'fallback' | 'planner', to: 'model' | 'fallback' | 'planner'): AlertFact => ({
      type: 'ladder',
      captain: 'ada',
      from,
      to,
      reason: 'spent $0.61 of $1.00',
    });
    expect(run(alerts, [step('model', 'fallback'), step('model', 'fallback'), step('fallback', 'planner')])).toEqual([
      'ada:budget_step',
      'ada:budget_step',
    ]);
    expect(run(alerts, [step('planner', 'model'), step('model', 'fallback')])).toEqual(['ada:budget_step']);
  });

  it('attacked and spoken to by name come from the game events; a read without them re-arms', () => {
    const alerts = engine();
    const events = (list: Extract<AlertFact, { type: 'game-events' }>['events']): AlertFact => ({
      type: 'game-events',
      captain: 'ada',
      events: list,
      names: ['ada', 'AdaTheMiner'],
    });
    const attack = { type: 'happened', kind: 'combat', text: 'Pirates fire on you (12 damage)' } as const;
    const hail = {
      type: 'said',
      kind: 'chat',
      from: 'zed',
      text: 'hey adathEMiner, sell me ore',
      channel: 'local',
    } as const;
    expect(run(alerts, [events([attack]), events([attack])])).toEqual(['ada:attacked']);
    expect(run(alerts, [events([]), events([attack])])).toEqual(['ada:attacked']);
    expect(run(alerts, [events([hail]), events([hail])])).toEqual(['ada:spoken_to']);
    // A read in which nobody names her ends the episode; "nadaly" does not name ada (whole words only).
    expect(run(alerts, [events([{ ...hail, text: 'nadaly sells cheap' }])])).toEqual([]);
    expect(run(alerts, [events([hail])])).toEqual(['ada:spoken_to']);
  });

  it('done fires when the captain finishes; a rule limited to some captains watches only those', () => {
    const alerts = engine({ rules: [{ rule: 'done', captains: ['bob'] }] });
    expect(
      run(alerts, [
        { type: 'state', captain: 'ada', state: 'finished' },
        { type: 'state', captain: 'bob', state: 'finished', note: 'max-ticks 300' },
        { type: 'state', captain: 'bob', state: 'parked' },
      ]),
    ).toEqual(['bob:done']);
  });

  it('a rule not configured never fires', () => {
    const alerts = engine({ rules: [{ rule: 'done' }] });
    expect(run(alerts, [{ type: 'state', captain: 'ada', state: 'parked' }])).toEqual([]);
  });

  it('links are the page path, or absolute under the page address given', () => {
    expect(alertLink({ captain: 'a b' })).toBe('/#captain=a%20b');
    expect(alertLink({ captain: 'ada', turn: 3, page: 'http://127.0.0.1:8080/' })).toBe(
      'http://127.0.0.1:8080/#captain=ada&turn=3',
    );
  });
});
