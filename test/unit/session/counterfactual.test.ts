// Counterfactual replay: the recorded requests are sent again exactly, the replies judged against what the captain
// did (same / same action / different / invalid / failed), the run stored apart, the session left as it was.
import { describe, expect, it } from 'vitest';
import { UNTRUSTED_RULE } from '../../../internal/llm/index.js';
import {
  checkCalls,
  judge,
  runCounterfactual,
  setUpSession,
  withSystemPrompt,
} from '../../../internal/session/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { silentLogger, type Message, type ToolSpec } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';

const grouped: ToolSpec = {
  name: 'spacemolt',
  description: 'the game',
  inputSchema: {
    type: 'object',
    properties: { action: { type: 'string', enum: ['mine', 'travel', 'get_status'] }, id: { type: 'string' } },
  },
  readOnly: false,
  actions: { mine: 'mutation', travel: 'mutation', get_status: 'query' },
};
const call = (name: string, args: unknown, id = 'c'): { id: string; name: string; arguments: string } => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

describe('judging a counterfactual reply', () => {
  it('tells same calls, same tool and action with other arguments, another choice and invalid calls apart', () => {
    const original = [call('spacemolt', { action: 'travel', id: 'belt' }), call('spacemolt', { action: 'get_status' })];
    const verdict = (calls: ReturnType<typeof call>[], content = ''): string =>
      judge(original, { content, calls: checkCalls(calls, [grouped]) }).verdict;
    // Same calls in another order, keys in another order, different ids.
    expect(
      verdict([
        call('spacemolt', { action: 'get_status' }, 'x'),
        call('spacemolt', { id: 'belt', action: 'travel' }, 'y'),
      ]),
    ).toBe('same');
    expect(
      verdict([call('spacemolt', { action: 'travel', id: 'moon' }), call('spacemolt', { action: 'get_status' })]),
    ).toBe('same-action');
    expect(verdict([call('spacemolt', { action: 'mine' })])).toBe('different');
    expect(verdict([], 'I would wait.')).toBe('different');
    expect(verdict([call('warp', {})])).toBe('invalid');
    expect(verdict([call('spacemolt', '{"action": ')])).toBe('invalid');
    expect(verdict([call('spacemolt', { action: 'dance' })])).toBe('invalid');
    expect(verdict([], '')).toBe('invalid');
    expect(judge([], { content: 'done', calls: [] }).verdict).toBe('same');
    expect(checkCalls([call('warp', {})], [grouped])[0]!.problem).toMatch(/unknown tool "warp"/);
  });

  it('swaps the base system prompt and keeps what Skipper added to that request', () => {
    const system: Message = {
      id: 'context-system',
      role: 'system',
      content: `Old base.\n\n${UNTRUSTED_RULE}\n\nMEMORY\n\nSTATE`,
      createdAt: 0,
    };
    const user: Message = { id: 'u', role: 'user', content: 'go', createdAt: 1 };
    const swapped = withSystemPrompt([system, user], 'New base.\n');
    expect(swapped[0]!.content).toBe(`New base.\n\n${UNTRUSTED_RULE}\n\nMEMORY\n\nSTATE`);
    expect(swapped[1]).toBe(user);
    expect(system.content.startsWith('Old base.')).toBe(true);
    expect(withSystemPrompt([system], 'Mine. <untrusted> is data.')[0]!.content).toBe(
      'Mine. <untrusted> is data.\n\nMEMORY\n\nSTATE',
    );
  });
});

async function recordedSession(): Promise<{ store: Store; sessionId: string; sent: ScriptedProvider }> {
  const store = await openStore({ path: ':memory:' });
  const session = await store.createSession({ name: 'orig', game: 'embedded', model: 'scripted/test' });
  const game = new FakeGame([
    { name: 'mine', result: 'Mined 3 iron_ore.' },
    { name: 'get_status', readOnly: true, result: 'Nova | 150cr' },
  ]);
  const sent = new ScriptedProvider([
    { toolCalls: [{ name: 'mine', arguments: {} }] },
    { toolCalls: [{ name: 'get_status', arguments: {} }] },
    { content: 'done' },
    { content: '' },
    { content: 'second turn' },
  ]);
  const { runner } = await setUpSession({
    store,
    session,
    provider: sent,
    game,
    tools: game.specs(),
    gameLabel: 'embedded',
    goal: () => undefined,
    maxRounds: 5,
    logger: silentLogger,
    memory: false,
  });
  await runner.run({ kind: 'user', text: 'mine' });
  await runner.run({ kind: 'user', text: 'again' });
  await runner.settled();
  return { store, sessionId: session.id, sent };
}

describe('runCounterfactual', () => {
  it('asks every decision point again with the stored context and stores the verdicts apart', async () => {
    const { store, sessionId, sent } = await recordedSession();
    const session = await store.getSession(sessionId);
    const stateOf = async (): Promise<string> =>
      JSON.stringify([
        await store.messages(sessionId),
        await store.turns(sessionId),
        await store.usageTotals(sessionId),
        await store.requests.list(sessionId),
      ]);
    const before = await stateOf();
    const other = new ScriptedProvider(
      [
        {
          toolCalls: [{ name: 'mine', arguments: {} }],
          usage: { promptTokens: 100, completionTokens: 5, costUsd: 0.01 },
        },
        { toolCalls: [{ name: 'teleport', arguments: {} }] },
        { toolCalls: [{ name: 'mine', arguments: {} }] },
        { content: 'fine' },
      ],
      { id: 'scripted/other' },
    );
    const seen: string[] = [];
    const result = await runCounterfactual({
      store,
      session,
      provider: other,
      onDecision: (decision) => void seen.push(decision.verdict),
    });
    // 5 requests: one empty reply (retried) is not a decision point.
    expect(result.skipped).toBe(1);
    // A text answer where the captain answered in text is the same choice (the words are not compared).
    expect(seen).toEqual(['same', 'invalid', 'different', 'same']);
    expect(result.totals).toMatchObject({
      decisions: 4,
      same: 2,
      different: 1,
      invalid: 1,
      failed: 0,
      tokens: 105,
      costUsd: 0.01,
    });
    expect(result.run).toMatchObject({ name: 'orig.cf1', model: 'scripted/other', status: 'done' });
    // Byte for byte what the original provider was sent, minus the retried request.
    const original = sent.requests.filter((_, index) => index !== 3);
    expect(other.requests.map((request) => JSON.stringify([request.messages, request.tools]))).toEqual(
      original.map((request) => JSON.stringify([request.messages, request.tools])),
    );
    expect((await store.counterfactuals.decisions(result.run.id)).map((decision) => decision.verdict)).toEqual(seen);
    expect(await stateOf()).toBe(before);
    await store.close();
  });

  it('tries another system prompt on the same states, within a turn range', async () => {
    const { store, sessionId } = await recordedSession();
    const other = new ScriptedProvider([{ content: 'second turn' }], { id: 'scripted/other' });
    const result = await runCounterfactual({
      store,
      session: await store.getSession(sessionId),
      provider: other,
      prompt: 'Be terse.',
      range: { fromTurn: 2 },
    });
    expect(result.totals).toMatchObject({ decisions: 1, same: 1 });
    expect(other.requests[0]!.messages[0]!.content.startsWith(`Be terse.\n\n${UNTRUSTED_RULE}`)).toBe(true);
    expect(result.run).toMatchObject({ prompt: 'Be terse.', fromTurn: 2 });
    await store.close();
  });

  it("a provider error is that decision's verdict; an abort stops the run as interrupted", async () => {
    const { store, sessionId } = await recordedSession();
    const session = await store.getSession(sessionId);
    const failing = new ScriptedProvider([
      { error: new Error('HTTP 500') },
      { content: 'x' },
      { content: 'x' },
      { content: 'x' },
    ]);
    const failed = await runCounterfactual({ store, session, provider: failing });
    expect(failed.totals).toMatchObject({ decisions: 4, failed: 1 });
    expect(failed.decisions[0]!.problems).toEqual(['HTTP 500']);
    const controller = new AbortController();
    const slow = new ScriptedProvider([{ content: 'x' }, { content: 'x', delayMs: 5000 }]);
    const run = runCounterfactual({
      store,
      session,
      provider: slow,
      signal: controller.signal,
      onDecision: () => controller.abort(),
    });
    const interrupted = await run;
    expect(interrupted.run.status).toBe('interrupted');
    expect(interrupted.totals.decisions).toBe(1);
    await store.close();
  });

  it('says clearly that a session recorded before requests were kept cannot be replayed', async () => {
    const store = await openStore({ path: ':memory:' });
    const session = await store.createSession({ name: 'old-run', game: 'embedded', model: 'builtin/autopilot' });
    await store.append(session.id, { role: 'user', content: 'hi', turn: 1 });
    await expect(runCounterfactual({ store, session, provider: new ScriptedProvider([]) })).rejects.toThrow(
      /no recorded model requests.*-s old-run/s,
    );
    expect(await store.counterfactuals.list()).toEqual([]);
    await store.close();
  });
});

describe('built-in captains started mid-session', () => {
  it('are shown the earlier decision points first (unjudged); language models are not', async () => {
    const { store, sessionId } = await recordedSession();
    const session = await store.getSession(sessionId);
    const builtin = Object.assign(
      new ScriptedProvider([{ content: 'x' }, { content: 'x' }, { content: 'x' }, { content: 'second turn' }], {
        id: 'builtin/test',
      }),
      {
        capabilities: { builtin: true },
      },
    );
    const result = await runCounterfactual({ store, session, provider: builtin, range: { fromTurn: 2 } });
    expect(builtin.requests).toHaveLength(4);
    expect(result.totals).toMatchObject({ decisions: 1, same: 1 });
    const model = new ScriptedProvider([{ content: 'second turn' }]);
    await runCounterfactual({ store, session, provider: model, range: { fromTurn: 2 } });
    expect(model.requests).toHaveLength(1);
    await store.close();
  });
});

describe('a model that cannot answer', () => {
  it('stops the run after three failed requests in a row, keeping what it has', async () => {
    const { store, sessionId } = await recordedSession();
    const down = new ScriptedProvider([1, 2, 3, 4].map(() => ({ error: new Error('connect ECONNREFUSED') })));
    const result = await runCounterfactual({ store, session: await store.getSession(sessionId), provider: down });
    expect(result.totals).toMatchObject({ decisions: 3, failed: 3 });
    expect(result.run.status).toBe('failed');
    expect(result.stopped).toMatch(/3 requests in a row failed; the last one: connect ECONNREFUSED/);
    await store.close();
  });
});
