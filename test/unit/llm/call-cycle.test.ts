// The loop guard's cycle detector on its own (rule 11): cycles of 1–4 calls at the tail, results never looked at,
// thresholds by what the cycle does; the built-in autopilot's real turns never trip it.
import { describe, expect, it } from 'vitest';
import {
  callLabel,
  canonicalJson,
  findCycle,
  repeatsForLoop,
  SAME_ACTION_REPEATS,
  type CallRecord,
} from '../../../internal/llm/index.js';
import { MAX_MUTATIONS_PER_TURN } from '../../../internal/provider/builtin/policy.js';

const QUERIES = new Set(['get_status', 'get_system', 'get_map', 'get_poi', 'get_cargo', 'view_market']);

/** `travel:a` is travel({id: "a"}); a name without `:` takes no arguments. */
function call(text: string): CallRecord {
  const [name = '', id] = text.split(':');
  const args = id === undefined ? {} : { id };
  return { key: `${name}\0${canonicalJson(args)}`, label: callLabel(name, args), action: !QUERIES.has(name) };
}
const calls = (...texts: string[]): CallRecord[] => texts.map(call);
const times = (n: number, ...texts: string[]): string[] => Array.from({ length: n }, () => texts).flat();

describe('findCycle', () => {
  it('finds cycles of length 1 to 4 exactly when they have gone round often enough, not one call earlier', () => {
    const cases: Array<{ cycle: string[]; needed: number }> = [
      { cycle: ['get_status'], needed: SAME_ACTION_REPEATS },
      { cycle: ['travel:a', 'travel:b'], needed: 3 },
      { cycle: ['travel:a', 'travel:b', 'travel:c'], needed: 2 },
      { cycle: ['travel:a', 'get_poi', 'travel:b', 'get_poi'], needed: 2 },
    ];
    for (const { cycle, needed } of cases) {
      expect(repeatsForLoop(calls(...cycle))).toBe(needed);
      const all = calls('get_map', ...times(needed, ...cycle));
      expect(findCycle(all.slice(0, -1)), cycle.join(',')).toBeUndefined();
      const found = findCycle(all);
      expect(found?.repeats).toBe(needed);
      expect(found?.calls).toEqual(cycle.map((text) => call(text).label));
    }
  });

  it('ignores results by design: only names and canonical arguments make a call the same', () => {
    const a = { key: `travel\0${canonicalJson({ id: 'a', fast: true })}`, label: 'travel(a)', action: true };
    const aReordered = { key: `travel\0${canonicalJson({ fast: true, id: 'a' })}`, label: 'travel(a)', action: true };
    const b = { key: `travel\0${canonicalJson({ id: 'b' })}`, label: 'travel(b)', action: true };
    expect(findCycle([a, b, aReordered, b, a, b])).toEqual({
      calls: ['travel(a)', 'travel(b)'],
      repeats: 3,
      sameAction: false,
    });
  });

  it('finds a hub wander A, B, A, C gone round twice: a cycle of four', () => {
    expect(findCycle(calls(...times(2, 'travel:a', 'travel:b', 'travel:a', 'travel:c')))).toMatchObject({
      calls: ['travel(id=a)', 'travel(id=b)', 'travel(id=a)', 'travel(id=c)'],
      repeats: 2,
    });
  });

  it('judges A, B, A, B as the pair going round and A, A as one call repeated', () => {
    expect(findCycle(calls(...times(2, 'dock', 'undock', 'dock', 'undock')))).toMatchObject({
      calls: ['dock()', 'undock()'],
      repeats: 4,
    });
    expect(findCycle(calls(...times(5, 'mine')))).toBeUndefined();
    expect(findCycle(calls(...times(6, 'mine')))).toMatchObject({ calls: ['mine()'], repeats: 6, sameAction: true });
  });

  it('counts a cycle of looks (nothing done between) like any other, with its results left out', () => {
    expect(findCycle(calls(...times(3, 'get_system', 'get_map')))).toMatchObject({ repeats: 3, sameAction: false });
    expect(findCycle(calls(...times(2, 'get_status', 'get_system', 'view_market')))).toMatchObject({ repeats: 2 });
  });

  it('judges one action with looks between (mine → get_cargo) like the action repeated on its own', () => {
    expect(repeatsForLoop(calls('mine', 'get_cargo'))).toBe(SAME_ACTION_REPEATS);
    expect(findCycle(calls(...times(SAME_ACTION_REPEATS - 1, 'mine', 'get_cargo')))).toBeUndefined();
    expect(findCycle(calls(...times(SAME_ACTION_REPEATS, 'mine', 'get_cargo')))).toMatchObject({ sameAction: true });
  });

  it('finds nothing in sequences that do not repeat back to back', () => {
    expect(
      findCycle(calls('jump:a', 'jump:b', 'jump:a', 'jump:c', 'jump:a', 'jump:d', 'jump:a', 'jump:e')),
    ).toBeUndefined();
    expect(
      findCycle(calls('travel:a', 'travel:b', 'get_poi', 'travel:a', 'travel:b', 'travel:c', 'travel:a', 'travel:b')),
    ).toBeUndefined();
    expect(findCycle(calls(...times(2, 'travel:a', 'travel:b'), 'get_map', 'travel:a', 'travel:b'))).toBeUndefined();
    expect(findCycle([])).toBeUndefined();
  });

  it("never trips on the built-in autopilot's turns: survey, then up to MAX_MUTATIONS_PER_TURN actions (mine ×5)", () => {
    // Turns as the autopilot played them on minimolt (grind, trade and explore seeds; see the report-autoplay test).
    const turns = [
      [
        'get_status',
        'get_map',
        'get_system',
        'view_market',
        'travel:belt',
        'get_poi',
        'travel:ice',
        'get_poi',
        'jump:nexus',
        'get_system',
      ],
      ['travel:belt', ...times(MAX_MUTATIONS_PER_TURN - 1, 'mine')],
      times(MAX_MUTATIONS_PER_TURN, 'mine'),
      ['mine', 'mine', 'travel:station', 'dock', 'sell:platinum_ore'],
      ['jump:a', 'jump:b', 'jump:a', 'jump:c', 'get_system', 'jump:d'],
    ];
    for (const turn of turns) {
      const seq = calls(...turn);
      for (let end = 1; end <= seq.length; end += 1)
        expect(findCycle(seq.slice(0, end)), turn.join(',')).toBeUndefined();
    }
  });

  it('labels calls with their arguments, clipped, and never shows one that could be a secret', () => {
    expect(callLabel('travel', { poi_id: 'sol_belt' })).toBe('travel(poi_id=sol_belt)');
    expect(callLabel('spacemolt', { id: 'sol', action: 'jump' })).toBe('spacemolt(action=jump, id=sol)');
    expect(callLabel('login', { username: 'nova', password: 'hunter2' })).toBe('login(password=…, username=nova)');
    expect(callLabel('register', { registration_code: 'X-1', api_key: 'k', token: 't' })).not.toMatch(/X-1|=k|=t\b/);
    expect(callLabel('sell', { quantity: 5, item: { id: 'ore' } })).toBe('sell(item={"id":"ore"}, quantity=5)');
    expect(callLabel('chat', { content: 'x'.repeat(100) }).length).toBeLessThan(60);
    expect(callLabel('mine', '{not json')).toBe('mine({not json)');
  });
});
