import { describe, expect, it } from 'vitest';
import { openStore, type CounterfactualDecision } from '../../../internal/store/index.js';

function decision(requestId: number, verdict: CounterfactualDecision['verdict'], tokens = 10): CounterfactualDecision {
  return {
    requestId,
    turn: 1,
    round: requestId,
    verdict,
    original: { content: '', toolCalls: [{ id: 'c1', name: 'spacemolt', arguments: '{"action":"mine"}' }] },
    proposed: { content: 'x', toolCalls: [{ id: 'p1', name: 'spacemolt', arguments: '{"action":"dock"}' }] },
    problems: verdict === 'invalid' ? ['unknown tool "warp"'] : [],
    usage: { promptTokens: tokens, completionTokens: 1, cachedTokens: 0, costUsd: 0.001 },
    latencyMs: 12.4,
  };
}

describe('counterfactual store', () => {
  it('names runs after their session, sums their decisions and lists them newest first', async () => {
    let now = 1000;
    const store = await openStore({ path: ':memory:', now: () => now });
    const session = await store.createSession({ name: 'night-run', game: 'embedded', model: 'builtin/autopilot' });
    const first = await store.counterfactuals.create({ sessionId: session.id, model: 'builtin/random', fromTurn: 2 });
    expect(first).toMatchObject({
      name: 'night-run.cf1',
      sessionName: 'night-run',
      status: 'running',
      fromTurn: 2,
      toTurn: null,
      prompt: null,
    });
    for (const [index, verdict] of (['same', 'same-action', 'different', 'invalid', 'failed'] as const).entries()) {
      await store.counterfactuals.addDecision(first.id, decision(index + 1, verdict));
    }
    await store.counterfactuals.finish(first.id, 'done');
    now = 2000;
    const second = await store.counterfactuals.create({
      sessionId: session.id,
      model: 'openai/gpt-4o-mini',
      prompt: 'Be terse.',
    });
    expect(second.name).toBe('night-run.cf2');

    const list = await store.counterfactuals.list();
    expect(list.map((row) => row.run.name)).toEqual(['night-run.cf2', 'night-run.cf1']);
    expect(list[1]!.totals).toEqual({
      decisions: 5,
      same: 1,
      sameAction: 1,
      different: 2,
      invalid: 1,
      failed: 1,
      tokens: 55,
      costUsd: expect.closeTo(0.005, 6),
    });
    expect(list[1]!.run).toMatchObject({ status: 'done', endedAt: 2000 - 1000 });
    expect(list[0]!.totals.decisions).toBe(0);
    expect((await store.counterfactuals.get('night-run.cf2'))?.run.prompt).toBe('Be terse.');

    const decisions = await store.counterfactuals.decisions(first.id);
    expect(decisions).toHaveLength(5);
    expect(decisions[3]).toMatchObject({ verdict: 'invalid', problems: ['unknown tool "warp"'], latencyMs: 12 });
    expect(decisions[0]!.proposed.toolCalls[0]!.arguments).toBe('{"action":"dock"}');
    // The session's own rows are untouched: no message, usage or turn was written for it.
    expect(await store.messageCount(session.id)).toBe(0);
    expect((await store.usageTotals(session.id)).calls).toBe(0);
    await store.close();
  });

  it('refuses a decision stored twice for the same request', async () => {
    const store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ game: 'embedded', model: 'm' });
    const run = await store.counterfactuals.create({ sessionId: session.id, model: 'builtin/random' });
    await store.counterfactuals.addDecision(run.id, decision(1, 'same'));
    await expect(store.counterfactuals.addDecision(run.id, decision(1, 'same'))).rejects.toThrow(/already stored/);
    await store.close();
  });
});
