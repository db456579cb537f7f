// Why autoplay stopped is data (a StopReason) worded by one function, and the runner hands a turn's events to its
// watchers as the loop yields them (no translation), besides its own bookkeeping: usage rows and game state.
import { describe, expect, it } from 'vitest';
import { createHistory } from '../../../internal/llm/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { emptyUsage, isStopCode, silentLogger } from '../../../internal/shared/index.js';
import {
  budgetTokens,
  budgetUsd,
  SessionRunner,
  stopReasonJson,
  stopReasonText,
  type RunnerEvent,
  type RunnerStore,
  type StopReason,
} from '../../../internal/session/index.js';
import { FakeGame } from '../../fakes/fake-game.js';

describe('stop reasons', () => {
  it('words every kind the way the CLI always printed it', () => {
    const cases: Array<[StopReason, string]> = [
      [{ code: 'max_turns', limit: 3 }, 'reached --max-turns 3'],
      [{ code: 'max_ticks', limit: 120 }, 'reached --max-ticks 120'],
      [{ code: 'duration', limitMs: 60_000 }, 'reached --duration'],
      [{ code: 'budget_exceeded', overrun: { unit: 'tokens', used: 1200, limit: 1000 } }, 'token budget of 1000 spent'],
      [{ code: 'budget_exceeded', overrun: { unit: 'usd', used: 0.6, limit: 0.5 } }, 'budget of $0.5 spent'],
      [{ code: 'budget_exceeded' }, 'budget spent'],
      [{ code: 'cancelled' }, 'interrupted'],
      [{ code: 'failures', turns: 3, last: 'empty reply' }, '3 turns in a row failed (last: empty reply)'],
    ];
    for (const [reason, text] of cases) expect(stopReasonText(reason)).toBe(text);
  });

  it('writes stop_reason as an object: a shared stop code, the limit when there is one, the words', () => {
    expect(stopReasonJson({ code: 'max_ticks', limit: 120 })).toEqual({
      code: 'max_ticks',
      limit: 120,
      text: 'reached --max-ticks 120',
    });
    expect(stopReasonJson({ code: 'duration', limitMs: 60_000 })).toEqual({
      code: 'duration',
      limit: 60_000,
      text: 'reached --duration',
    });
    expect(stopReasonJson({ code: 'budget_exceeded', overrun: { unit: 'usd', used: 0.6, limit: 0.5 } })).toEqual({
      code: 'budget_exceeded',
      limit: 0.5,
      text: 'budget of $0.5 spent',
    });
    expect(stopReasonJson({ code: 'cancelled' })).toEqual({ code: 'cancelled', text: 'interrupted' });
    expect(isStopCode(stopReasonJson({ code: 'failures', turns: 3, last: 'x' }).code)).toBe(true);
  });

  it('budget rules count only what this run spent', () => {
    const progress = {
      turns: 1,
      startedAt: 0,
      startTick: undefined,
      tick: undefined,
      startUsage: { ...emptyUsage(), promptTokens: 5000, costUsd: 2 },
      usage: { ...emptyUsage(), promptTokens: 5900, completionTokens: 100, costUsd: 2.5 },
    };
    expect(budgetTokens(1000)(progress)).toEqual({
      code: 'budget_exceeded',
      overrun: { unit: 'tokens', used: 1000, limit: 1000 },
    });
    expect(budgetTokens(1001)(progress)).toBeUndefined();
    expect(budgetUsd(0.5)(progress)).toEqual({
      code: 'budget_exceeded',
      overrun: { unit: 'usd', used: 0.5, limit: 0.5 },
    });
    expect(budgetUsd(0.6)(progress)).toBeUndefined();
  });
});

describe('the runner forwards turn events', () => {
  it('hands every turn event on as it is, records usage and reads state from tool results', async () => {
    const game = new FakeGame([
      { name: 'get_status', readOnly: true, result: { text: 'ok', isError: false, data: { player: { credits: 42 } } } },
    ]);
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'c1', name: 'get_status' }], usage: { promptTokens: 10, completionTokens: 1 } },
      { content: 'done' },
    ]);
    const usageRows: number[] = [];
    const store: RunnerStore = {
      recordUsage: async (row) => void usageRows.push(row.round),
      recordSnapshot: async () => {},
      recordTurn: async () => {},
    };
    const runner = new SessionRunner({
      sessionId: 's',
      sessionName: 't',
      store,
      history: createHistory(),
      provider,
      game,
      tools: game.specs(),
      systemPrompt: () => 's',
      maxRounds: 5,
      logger: silentLogger,
    });
    const events: RunnerEvent[] = [];
    runner.on((event) => events.push(event));
    const summary = await runner.run({ kind: 'user', text: 'status?' });
    expect(summary.outcome).toBe('answered');
    expect(usageRows).toEqual([1, 2]);
    expect(events.filter((event) => event.type !== 'delta').map((event) => event.type)).toEqual([
      'turn-start',
      'round-start',
      'usage',
      'assistant-message',
      'tool-call',
      'tool-result',
      'state',
      'round-end',
      'round-start',
      'usage',
      'assistant-message',
      'round-end',
      'turn-end',
    ]);
    const result = events.find((event) => event.type === 'tool-result');
    expect(result?.type === 'tool-result' && result.call.id).toBe('c1');
    expect(runner.state?.credits).toBe(42);
  });
});
