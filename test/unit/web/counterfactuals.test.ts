// The replay view's counterfactual side: only the decisions that differ from the original are sent, in turn and round
// order, as action lines (words when a side answered in words), for the runs of that session only. Real SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type CounterfactualDecision } from '../../../internal/store/index.js';
import { counterfactualViews, divergences } from '../../../internal/web/counterfactuals.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function decision(
  requestId: number,
  turn: number,
  verdict: CounterfactualDecision['verdict'],
  proposed: CounterfactualDecision['proposed'] = {
    content: '',
    toolCalls: [{ id: 'p', name: 'spacemolt', arguments: '{"action":"dock"}' }],
  },
): CounterfactualDecision {
  return {
    requestId,
    turn,
    round: 1,
    verdict,
    original: { content: '', toolCalls: [{ id: 'o', name: 'spacemolt', arguments: '{"action":"mine"}' }] },
    proposed,
    problems: verdict === 'invalid' ? ['unknown tool "warp"'] : [],
    usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, costUsd: 0 },
    latencyMs: 1,
  };
}

describe('counterfactuals beside the replay', () => {
  it('keeps the divergences of the session’s own runs, in turn order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skipper-web-cf-'));
    dirs.push(dir);
    const store = await openStore({ path: join(dir, 'skipper.db') });
    const ada = await store.createSession({ name: 'ada', game: 'embedded', model: 'builtin/autopilot' });
    const bob = await store.createSession({ name: 'bob', game: 'embedded', model: 'builtin/autopilot' });
    const run = await store.counterfactuals.create({ sessionId: ada.id, model: 'builtin/random' });
    await store.counterfactuals.addDecision(run.id, decision(3, 5, 'different'));
    await store.counterfactuals.addDecision(run.id, decision(1, 2, 'same'));
    await store.counterfactuals.addDecision(run.id, decision(2, 3, 'invalid'));
    await store.counterfactuals.addDecision(run.id, decision(4, 6, 'failed', { content: '', toolCalls: [] }));
    await store.counterfactuals.addDecision(
      run.id,
      decision(5, 7, 'different', { content: 'I would wait', toolCalls: [] }),
    );
    await store.counterfactuals.create({ sessionId: bob.id, model: 'builtin/random' });

    const views = await counterfactualViews(store, ada.id);
    expect(views).toHaveLength(1);
    expect(views[0]!.totals.decisions).toBe(5);
    expect(views[0]!.divergences).toEqual([
      {
        turn: 3,
        round: 1,
        verdict: 'invalid',
        original: ['spacemolt mine'],
        proposed: ['spacemolt dock'],
        problems: ['unknown tool "warp"'],
      },
      {
        turn: 5,
        round: 1,
        verdict: 'different',
        original: ['spacemolt mine'],
        proposed: ['spacemolt dock'],
        problems: [],
      },
      { turn: 6, round: 1, verdict: 'failed', original: ['spacemolt mine'], proposed: ['(nothing)'], problems: [] },
      {
        turn: 7,
        round: 1,
        verdict: 'different',
        original: ['spacemolt mine'],
        proposed: ['says: I would wait'],
        problems: [],
      },
    ]);
    expect((await counterfactualViews(store, bob.id))[0]!.divergences).toEqual([]);
    expect(divergences(await store.counterfactuals.decisions(run.id), 2).map((item) => item.turn)).toEqual([3, 5]);
    await store.close();
  });
});
