// Rule 10: round limit, failure streaks and budgets are reported as what they are, never as success; only a
// success resets the failure counter.
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../../internal/llm/index.js';
import { ScriptedProvider, type ScriptedReply } from '../../fakes/scripted-provider.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { expectValidTranscript, newHistory } from './helpers.js';

const base = { systemPrompt: 's', input: { kind: 'user' as const, text: 'go' } };

describe('rule 10: honest outcomes', () => {
  it('reports the round limit as round_limit, not answered', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true, result: (_args, index) => `status #${index}` }]);
    const provider = new ScriptedProvider(
      Array.from({ length: 3 }, (_, i) => ({ toolCalls: [{ name: 'get_status', arguments: { n: i } }] })),
    );
    const history = newHistory();
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history, maxRounds: 3 });
    expect(result.outcome).toBe('round_limit');
    expect(result.rounds).toBe(3);
    expect(result.answer).toBeUndefined();
    expect(result.nudge).toMatch(/3 rounds/);
    expect(provider.requests).toHaveLength(3);
    expectValidTranscript(history.snapshot());
  });

  it('stops after 5 consecutive failed calls', async () => {
    const game = new FakeGame([
      {
        name: 'mine',
        result: (_args, index) => ({ text: `no_resources: try ${index}`, isError: true, code: 'no_resources' }),
      },
    ]);
    const steps: ScriptedReply[] = Array.from({ length: 10 }, (_, i) => ({
      toolCalls: [{ name: 'mine', arguments: { attempt: i } }],
    }));
    const provider = new ScriptedProvider(steps);
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history: newHistory() });
    expect(result.outcome).toBe('failed');
    expect(result.rounds).toBe(5);
    expect(result.failedToolCalls).toBe(5);
    expect(result.error).toMatch(/5 tool calls failed in a row.*no_resources: try 4/);
    expect(result.errorsByCode).toEqual({ no_resources: 5 });
  });

  it('resets the failure streak on success only', async () => {
    // fail ×4, success, fail ×4, answer: never 5 in a row.
    const pattern = [false, false, false, false, true, false, false, false, false];
    const game = new FakeGame([
      {
        name: 'mine',
        result: (_args, index) =>
          pattern[index] ? `mined #${index}` : { text: `error #${index}`, isError: true, code: 'no_resources' },
      },
    ]);
    const steps: ScriptedReply[] = pattern.map((_, i) => ({ toolCalls: [{ name: 'mine', arguments: { i } }] }));
    const provider = new ScriptedProvider([...steps, { content: 'giving up for now' }]);
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history: newHistory() });
    expect(result.outcome).toBe('answered');
    expect(result.failedToolCalls).toBe(8);
  });

  it('counts failures across one round in call order', async () => {
    const game = new FakeGame([
      {
        name: 'dock',
        result: (_args, index) => ({ text: `already_docked ${index}`, isError: true, code: 'already_docked' }),
      },
    ]);
    const provider = new ScriptedProvider([
      { toolCalls: Array.from({ length: 6 }, (_, i) => ({ name: 'dock', arguments: { i } })) },
    ]);
    const history = newHistory();
    const result = await runTurn({ ...base, provider, game, tools: game.specs(), history });
    expect(result.outcome).toBe('failed');
    // The round still answers every call before stopping.
    expect(history.snapshot().filter((message) => message.role === 'tool')).toHaveLength(6);
    expectValidTranscript(history.snapshot());
  });

  it('stops with budget_exceeded once spent + this turn reaches the token budget', async () => {
    const game = new FakeGame([{ name: 'get_status', readOnly: true, result: (_args, index) => `s${index}` }]);
    const usage = { promptTokens: 400, completionTokens: 100 };
    const provider = new ScriptedProvider(
      Array.from({ length: 5 }, (_, i) => ({ usage, toolCalls: [{ name: 'get_status', arguments: { i } }] })),
    );
    const spent = { promptTokens: 800, completionTokens: 200, cachedTokens: 0, costUsd: 0 };
    const result = await runTurn({
      ...base,
      provider,
      game,
      tools: game.specs(),
      history: newHistory(),
      budget: { tokens: 2000, spent },
    });
    expect(result.outcome).toBe('budget_exceeded');
    expect(result.rounds).toBe(2);
    expect(result.usage.promptTokens).toBe(800);
    expect(result.error).toMatch(/2000/);
  });

  it('does not call the model when the cost budget is already spent', async () => {
    const provider = new ScriptedProvider([]);
    const spent = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 1.5 };
    const result = await runTurn({
      ...base,
      provider,
      game: new FakeGame([]),
      tools: [],
      history: newHistory(),
      budget: { usd: 1, spent },
    });
    expect(result.outcome).toBe('budget_exceeded');
    expect(provider.requests).toHaveLength(0);
  });

  it('reports provider errors as failed with the message', async () => {
    const provider = new ScriptedProvider([{ error: new Error('HTTP 503 after 4 attempts') }]);
    const result = await runTurn({ ...base, provider, game: new FakeGame([]), tools: [], history: newHistory() });
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatch(/503/);
  });
});
