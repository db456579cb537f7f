// Rule 11: the same call (canonical arguments) with the same result 3 times, or a cycle of calls going round (results
// ignored: call-cycle.ts), stops the turn with a nudge.
import { describe, expect, it } from 'vitest';
import { SAME_ACTION_REPEATS, canonicalJson, runTurn } from '../../../internal/llm/index.js';
import { MAX_MUTATIONS_PER_TURN } from '../../../internal/provider/builtin/policy.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { expectValidTranscript, newHistory } from './helpers.js';

const base = { systemPrompt: 's', input: { kind: 'user' as const, text: 'go' } };

describe('rule 11: loop guard', () => {
  it('stops a model that repeats itself, whatever the key order', async () => {
    const game = new FakeGame([{ name: 'get_poi', readOnly: true, result: 'Sol Belt: iron 40' }]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ name: 'get_poi', arguments: '{"poi_id":"belt","verbose":true}' }] },
      { toolCalls: [{ name: 'get_poi', arguments: '{"verbose":true,"poi_id":"belt"}' }] },
      { toolCalls: [{ name: 'get_poi', arguments: '{ "poi_id": "belt", "verbose": true }' }] },
      { content: 'never reached' },
    ]);
    const history = newHistory();
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history });
    expect(result.outcome).toBe('loop_detected');
    expect(result.rounds).toBe(3);
    expect(result.nudge).toMatch(/get_poi 3 times/);
    expect(provider.remaining).toBe(1);
    expectValidTranscript(history.snapshot());
  });

  it('an action answered with the same words each time (the real `Mined 7 X.`) is mining, not a loop, up to the cycle limit', async () => {
    const game = new FakeGame([{ name: 'mine', readOnly: false, result: 'Mined 7 Platinum Ore.' }]);
    const mines = (n: number) => Array.from({ length: n }, () => ({ toolCalls: [{ name: 'mine' }] }));
    const five = await runTurn({
      ...base,
      provider: new ScriptedProvider([...mines(5), { content: 'hold full' }]),
      game,
      tools: game.specs(),
      history: newHistory(),
    });
    expect(five.outcome).toBe('answered');
    const many = await runTurn({
      ...base,
      provider: new ScriptedProvider([...mines(SAME_ACTION_REPEATS), { content: 'x' }]),
      game,
      tools: game.specs(),
      history: newHistory(),
    });
    expect(many.outcome).toBe('loop_detected');
    expect(many.nudge).toMatch(/repeated 6 times/);
  });

  it('does not fire when the same call returns changing results (waiting for travel, mining)', async () => {
    const game = new FakeGame([
      { name: 'get_status', readOnly: true, result: (_args, index) => `ticks remaining: ${5 - index}` },
    ]);
    const provider = new ScriptedProvider([
      ...Array.from({ length: 4 }, () => ({ toolCalls: [{ name: 'get_status' }] })),
      { content: 'arrived' },
    ]);
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history: newHistory() });
    expect(result.outcome).toBe('answered');
  });

  it('catches a short cycle of queries whose results repeat: the exact-repeat rule, at the third same result', async () => {
    const game = new FakeGame([
      { name: 'get_system', readOnly: true, result: 'system Sol' },
      { name: 'get_map', readOnly: true, result: 'map' },
    ]);
    const provider = new ScriptedProvider(
      Array.from({ length: 6 }, (_, i) => ({ toolCalls: [{ name: i % 2 === 0 ? 'get_system' : 'get_map' }] })),
    );
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history: newHistory() });
    expect(result.outcome).toBe('loop_detected');
    expect(result.rounds).toBe(5);
  });

  it('catches a cycle whose results change (travel A ↔ B with the tick in the text), results ignored', async () => {
    let tick = 100;
    const game = new FakeGame([
      { name: 'travel', result: (args) => `[tick ${++tick}] arrived at ${String(args.poi_id)} after 1 tick(s)` },
    ]);
    const provider = new ScriptedProvider([
      ...Array.from({ length: 6 }, (_, i) => ({
        toolCalls: [{ name: 'travel', arguments: { poi_id: i % 2 === 0 ? 'belt' : 'station' } }],
      })),
      { content: 'never reached' },
    ]);
    const history = newHistory();
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history });
    expect(result.outcome).toBe('loop_detected');
    expect(result.rounds).toBe(6); // A, B three times: the third lap ends the turn
    expect(result.error).toMatch(/travel\(poi_id=belt\) → travel\(poi_id=station\) repeated 3 times/);
    expect(result.nudge).toMatch(/travel\(poi_id=belt\) → travel\(poi_id=station\) repeated 3 times in a row/);
    expect(provider.remaining).toBe(1);
    expect(game.calls).toHaveLength(6);
    expectValidTranscript(history.snapshot());
  });

  it('finds a cycle completed inside one round although more calls follow in that round', async () => {
    const game = new FakeGame([
      { name: 'get_system', readOnly: true, result: (_args, index) => `system Sol at tick ${index}` },
      { name: 'get_map', readOnly: true, result: (_args, index) => `map at tick ${index}` },
      { name: 'get_poi', readOnly: true, result: 'belt' },
    ]);
    const round = [
      ...Array.from({ length: 6 }, (_, i) => ({ name: i % 2 === 0 ? 'get_system' : 'get_map' })),
      { name: 'get_poi' },
    ];
    const provider = new ScriptedProvider([{ toolCalls: round }, { content: 'never reached' }]);
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history: newHistory() });
    expect(result.outcome).toBe('loop_detected');
    expect(result.rounds).toBe(1);
    expect(result.nudge).toMatch(/get_system\(\) → get_map\(\) repeated 3 times/);
  });

  it('lets the autopilot mine a full turn (MAX_MUTATIONS_PER_TURN times in a row) and stops a call repeated past that', async () => {
    const mining = (times: number): ScriptedProvider =>
      new ScriptedProvider([
        ...Array.from({ length: times }, () => ({ toolCalls: [{ name: 'mine' }] })),
        { content: 'hold filling' },
      ]);
    const game = (): FakeGame =>
      new FakeGame([{ name: 'mine', result: (_args, index) => `mined 5 iron; cargo ${5 * (index + 1)}/70` }]);
    const full = game();
    const turn = await runTurn({
      ...base,
      provider: mining(MAX_MUTATIONS_PER_TURN),
      game: full,
      tools: full.specs(),
      history: newHistory(),
    });
    expect(turn.outcome).toBe('answered');
    const long = game();
    const provider = mining(SAME_ACTION_REPEATS + 2);
    const stopped = await runTurn({ ...base, provider, game: long, tools: long.specs(), history: newHistory() });
    expect(stopped.outcome).toBe('loop_detected');
    expect(stopped.rounds).toBe(SAME_ACTION_REPEATS);
    expect(stopped.nudge).toMatch(
      new RegExp(`mine\\(\\) repeated ${SAME_ACTION_REPEATS} times in a row\\. If each time still got you somewhere`),
    );
  });

  it('makes canonical JSON independent of key order at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":2,"y":1}]},"b":1}',
    );
  });
});
