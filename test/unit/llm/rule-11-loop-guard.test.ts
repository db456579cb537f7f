// Rule 11: the same call (canonical arguments) with the same result 3 times stops the turn with a nudge.
import { describe, expect, it } from 'vitest';
import { canonicalJson, runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../../internal/provider/scripted.js';
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
    expect(result.outcome).toBe('loop-detected');
    expect(result.rounds).toBe(3);
    expect(result.nudge).toMatch(/get_poi 3 times/);
    expect(provider.remaining).toBe(1);
    expectValidTranscript(history.snapshot());
  });

  it('does not fire when the same call returns changing results (waiting for travel, mining)', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true, result: (_args, index) => `ticks remaining: ${5 - index}` }]);
    const provider = new ScriptedProvider([
      ...Array.from({ length: 4 }, () => ({ toolCalls: [{ name: 'get_status' }] })),
      { content: 'arrived' },
    ]);
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history: newHistory() });
    expect(result.outcome).toBe('answered');
  });

  it('catches a short cycle repeated (A, B, A, B, A, B)', async () => {
    const game = new FakeGame([
      { name: 'get_system', readOnly: true, result: 'system Sol' },
      { name: 'get_map', readOnly: true, result: 'map' },
    ]);
    const provider = new ScriptedProvider(
      Array.from({ length: 6 }, (_, i) => ({ toolCalls: [{ name: i % 2 === 0 ? 'get_system' : 'get_map' }] })),
    );
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history: newHistory() });
    expect(result.outcome).toBe('loop-detected');
    expect(result.rounds).toBe(5);
  });

  it('makes canonical JSON independent of key order at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":2,"y":1}]},"b":1}');
  });
});
