// Every model request is recorded as it is sent: the stored context is what the provider got (messages and tool
// list), rounds and retries are numbered as the loop numbers them, and the provider wrapper is otherwise invisible.
import { describe, expect, it } from 'vitest';
import { recordRequests, setUpSession } from '../../../internal/session/index.js';
import { ScriptedProvider } from '../../fakes/scripted-provider.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { silentLogger, type Provider } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';

async function playSession(steps: ConstructorParameters<typeof ScriptedProvider>[0]): Promise<{
  store: Store;
  provider: ScriptedProvider;
  run: () => Promise<void>;
  sessionId: string;
}> {
  const store = await openStore({ path: ':memory:' });
  const session = await store.createSession({ game: 'embedded', model: 'scripted/test' });
  const game = new FakeGame([
    { name: 'mine', result: 'Mined 3 iron_ore.' },
    { name: 'get_status', readOnly: true, result: 'Nova [solarian] | 150cr | Sol' },
  ]);
  const provider = new ScriptedProvider(steps);
  const { runner } = await setUpSession({
    store,
    session,
    provider,
    game,
    tools: game.specs(),
    gameLabel: 'embedded',
    goal: () => undefined,
    maxRounds: 5,
    logger: silentLogger,
    memory: false,
  });
  return {
    store,
    provider,
    sessionId: session.id,
    run: async () => {
      await runner.run({ kind: 'user', text: 'mine a bit' });
      await runner.run({ kind: 'user', text: 'status?' });
      await runner.settled();
    },
  };
}

describe('request log', () => {
  it('stores each request exactly as the provider received it, numbered by turn, round and attempt', async () => {
    const { store, provider, run, sessionId } = await playSession([
      { content: '' }, // empty: asked again, same round
      { toolCalls: [{ name: 'mine', arguments: {} }] },
      { toolCalls: [{ name: 'get_status', arguments: '' }] },
      { content: 'mined and looked' },
      { content: 'all fine' },
    ]);
    await run();
    const rows = await store.requests.list(sessionId);
    expect(rows.map((row) => [row.turn, row.round, row.attempt, row.outcome])).toEqual([
      [1, 1, 1, 'empty'],
      [1, 1, 2, 'reply'],
      [1, 2, 1, 'reply'],
      [1, 3, 1, 'reply'],
      [2, 1, 1, 'reply'],
    ]);
    expect(rows.every((row) => row.model === 'scripted/test')).toBe(true);
    for (const [index, row] of rows.entries()) {
      const stored = await store.requests.load(row.id);
      const sent = provider.requests[index]!;
      expect(JSON.stringify(stored.messages)).toBe(JSON.stringify(sent.messages));
      expect(JSON.stringify(stored.tools)).toBe(JSON.stringify(sent.tools));
    }
    // Round n's request is followed in the transcript by round n's assistant message.
    const assistants = (await store.messages(sessionId)).filter((message) => message.role === 'assistant');
    expect(assistants.map((message) => [message.turn, message.round])).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
      [2, 1],
    ]);
    await store.close();
  });

  it('records a failed request as an error of its round', async () => {
    const { store, run, sessionId } = await playSession([{ error: new Error('boom') }, { content: 'ok' }]);
    await run();
    expect((await store.requests.list(sessionId)).map((row) => [row.turn, row.round, row.outcome])).toEqual([
      [1, 1, 'error'],
      [2, 1, 'reply'],
    ]);
    await store.close();
  });

  it('leaves the provider as it is (id, window, capabilities, other methods) and records nothing without a port', async () => {
    const plans: unknown[] = [];
    const provider: Provider & { setFlightPlan(plan: unknown): void } = {
      id: 'builtin/x',
      contextWindow: 1234,
      capabilities: { builtin: true },
      complete: async () => ({
        message: { content: 'hi', toolCalls: [] },
        usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 },
        finishReason: 'stop',
        model: 'x',
      }),
      setFlightPlan(plan: unknown) {
        plans.push(plan);
        expect(this).toBe(provider);
      },
    };
    const rows: unknown[] = [];
    const wrapped = recordRequests(provider, {
      store: { recordRequest: (row: unknown) => rows.push(row) },
      sessionId: 's',
      turn: 4,
    }) as typeof provider;
    expect([wrapped.id, wrapped.contextWindow, wrapped.capabilities]).toEqual(['builtin/x', 1234, { builtin: true }]);
    wrapped.setFlightPlan('plan');
    expect(plans).toEqual(['plan']);
    await wrapped.complete({ messages: [{ id: 'm', role: 'user', content: 'go', createdAt: 1 }], tools: [] });
    expect(rows).toMatchObject([
      { sessionId: 's', turn: 4, round: 1, attempt: 1, model: 'builtin/x', outcome: 'reply', tools: '[]' },
    ]);
    expect(recordRequests(provider, { store: {}, sessionId: 's', turn: 1 })).toBe(provider);
  });
});
