// A captain handed only the latest turns (contextOnDemand, the built-in autopilot) leaves a recipe in the request log
// instead of the context; a counterfactual replay builds the context from it. The same script played twice, once by
// such a captain and once by one sent whole contexts, must give the same contexts request for request: what the
// replay rebuilds is what a language model would have been sent live.
import { describe, expect, it } from 'vitest';
import { requestContexts, setUpSession } from '../../../internal/session/index.js';
import { openStore, type Store } from '../../../internal/store/index.js';
import { silentLogger, type Message, type ToolResult, type ToolSpec } from '../../../internal/shared/index.js';
import { FakeGame } from '../../fakes/fake-game.js';
import { ScriptedProvider, type ScriptedStep } from '../../fakes/scripted-provider.js';

class OnDemandProvider extends ScriptedProvider {
  readonly capabilities = { builtin: false, contextOnDemand: true } as const;
}

/** SpaceMolt v2's shape: one grouped tool whose action says whether a call is a query. */
class GroupedGame extends FakeGame {
  override specs(): ToolSpec[] {
    return super
      .specs()
      .map((spec) =>
        spec.name === 'spacemolt' ? { ...spec, actions: { get_status: 'query', mine: 'mutation' } as const } : spec,
      );
  }
}

const dashboard = { player: { username: 'nova', credits: 120 }, ship: { fuel: 7, max_fuel: 10 } };

function game(): GroupedGame {
  return new GroupedGame([
    { name: 'mine', result: 'Mined 3 iron_ore.\n\nCredits: 120\nCargo: 3/50' },
    {
      name: 'get_status',
      readOnly: true,
      result: { text: 'Nova [solarian] | 120cr | Sol', data: dashboard, isError: false },
    },
    { name: 'scan', readOnly: true, result: `Scan:\n${'a faint signal; '.repeat(600)}\nEnd of scan.` },
    {
      name: 'dock',
      result: { text: 'Error: not_at_station: no station here.', isError: true, code: 'not_at_station' },
    },
    {
      name: 'spacemolt',
      result: (args): ToolResult =>
        args.action === 'mine'
          ? { text: 'Mined 2 copper_ore.', data: { op: 'mine' }, isError: false }
          : { text: 'Status: 120cr, fuel 7/10.', data: { op: 'get_status', ...dashboard }, isError: false },
    },
  ]);
}

const call = (name: string, args: Record<string, unknown> = {}): ScriptedStep => ({
  toolCalls: [{ name, arguments: args }],
});

const script: ScriptedStep[] = [
  // Turn 1: a state, an action, a long query result, the grouped tool both ways, a refusal.
  call('get_status'),
  call('mine'),
  call('scan'),
  call('spacemolt', { action: 'mine' }),
  call('spacemolt', { action: 'get_status' }),
  call('dock'),
  { content: 'Turn one done.' },
  // Turn 2: turn 1 is now older (stubs, shortened actions).
  call('mine'),
  call('scan'),
  { content: 'Turn two done.' },
  // Turn 3: an empty reply, asked again with the nudge.
  { content: '' },
  call('get_status'),
  { content: 'Turn three done.' },
  // Turns 4 and 5: the window walks on.
  call('spacemolt', { action: 'mine' }),
  { content: 'Turn four done.' },
  { content: 'Turn five done.' },
];

async function play(store: Store, provider: ScriptedProvider): Promise<string> {
  const session = await store.createSession({ game: 'embedded', model: provider.id });
  const fake = game();
  const { runner } = await setUpSession({
    store,
    session,
    provider,
    game: fake,
    tools: fake.specs(),
    gameLabel: 'embedded',
    goal: () => 'mine copper',
    maxRounds: 8,
    logger: silentLogger,
    memory: false,
  });
  for (const text of ['start', 'go on', 'again', 'once more', 'last one']) await runner.run({ kind: 'user', text });
  await runner.settled();
  return session.id;
}

/** Message ids and times differ between two sessions: each becomes its place in the session's transcript. */
function normalized(messages: readonly Message[], transcript: readonly Message[]): unknown[] {
  const place = new Map(transcript.map((message, index) => [message.id, `m${index}`]));
  return messages.map((message) => ({ ...message, id: place.get(message.id) ?? message.id, createdAt: 0 }));
}

describe('context recipes', () => {
  it('rebuild, request for request, the contexts a captain sent whole contexts was given', async () => {
    const store = await openStore({ path: ':memory:' });
    const onDemand = new OnDemandProvider(script, { id: 'scripted/on-demand' });
    const whole = new ScriptedProvider(script, { id: 'scripted/whole' });
    const recipes = await play(store, onDemand);
    const contexts = await play(store, whole);
    expect([onDemand.remaining, whole.remaining]).toEqual([0, 0]);

    const requests = async (sessionId: string) =>
      Promise.all((await store.requests.list(sessionId)).map((row) => store.requests.load(row.id)));
    const rebuilt = await requests(recipes);
    const sent = await requests(contexts);
    expect(rebuilt).toHaveLength(script.length);
    expect(sent).toHaveLength(script.length);
    expect(rebuilt.every((request) => request.recipe !== undefined && request.messages.length === 1)).toBe(true);
    expect(sent.every((request) => request.recipe === undefined)).toBe(true);
    expect(rebuilt.filter((request) => request.recipe?.nudge).map((request) => request.turn)).toEqual([3]);

    const contextOf = requestContexts(store, recipes);
    const transcripts = [await store.messages(recipes), await store.messages(contexts)] as const;
    for (const [index, request] of rebuilt.entries()) {
      const context = await contextOf(request);
      expect([request.turn, request.round, request.attempt]).toEqual([
        sent[index]!.turn,
        sent[index]!.round,
        sent[index]!.attempt,
      ]);
      expect(normalized(context, transcripts[0])).toEqual(normalized(sent[index]!.messages, transcripts[1]));
      expect(request.tools).toEqual(sent[index]!.tools);
    }
    // The contexts were worth comparing: older turns were shortened and stubbed, a long result cut, a nudge sent.
    const last = await contextOf(rebuilt.at(-1)!);
    expect(last.some((message) => /result omitted/.test(message.content))).toBe(true);
    const turnTwo = await contextOf(rebuilt.find((request) => request.turn === 2 && request.round === 3)!);
    expect(turnTwo.some((message) => /chars omitted/.test(message.content))).toBe(true);
    expect((await contextOf(rebuilt.find((request) => request.recipe?.nudge)!)).at(-1)?.id).toBe('context-nudge');
    await store.close();
  });

  it('hand the captain its system message and the latest turns only, as stored', async () => {
    const store = await openStore({ path: ':memory:' });
    const onDemand = new OnDemandProvider(script, { id: 'scripted/on-demand' });
    const sessionId = await play(store, onDemand);
    const transcript = await store.messages(sessionId);
    const turnOf = new Map(transcript.map((message) => [message.id, message.turn]));
    for (const request of onDemand.requests) {
      expect(request.messages[0]?.role).toBe('system');
      expect(request.recipe).toBeDefined();
      const turns = new Set(request.messages.slice(1).map((message) => turnOf.get(message.id) ?? 'nudge'));
      const current = Math.max(...[...turns].filter((turn): turn is number => typeof turn === 'number'));
      // The current turn and the one before it, nothing older.
      expect([...turns].every((turn) => turn === 'nudge' || turn === current || turn === current - 1)).toBe(true);
    }
    await store.close();
  });

  it('rebuild, request for request, the latest turns the captain itself was handed (what a replay hands it)', async () => {
    const store = await openStore({ path: ':memory:' });
    const onDemand = new OnDemandProvider(script, { id: 'scripted/on-demand' });
    const sessionId = await play(store, onDemand);
    const stored = [];
    for (const row of await store.requests.list(sessionId)) stored.push(await store.requests.load(row.id));
    expect(stored).toHaveLength(onDemand.requests.length);
    const handed = requestContexts(store, sessionId, { latestTurns: true });
    const whole = requestContexts(store, sessionId);
    for (const [index, request] of stored.entries()) {
      expect(request.recipe?.from).toBeDefined();
      expect(await handed(request)).toEqual(onDemand.requests[index]!.messages);
    }
    // Not the whole context a model would have been sent: older turns are left out.
    const last = stored.at(-1)!;
    expect((await handed(last)).length).toBeLessThan((await whole(last)).length);
    // A recipe stored before `from` was kept is read whole, as before.
    const { from: _from, ...older } = last.recipe!;
    expect(await handed({ ...last, recipe: older })).toEqual(await whole(last));
    await store.close();
  });

  it('a recipe naming a message the transcript lacks is a clear error, not a wrong context', async () => {
    const store = await openStore({ path: ':memory:' });
    const sessionId = await play(store, new OnDemandProvider(script, { id: 'scripted/on-demand' }));
    const [first] = await store.requests.list(sessionId);
    const stored = await store.requests.load(first!.id);
    const damaged = { ...stored, recipe: { ...stored.recipe!, through: 'no-such-message' } };
    await expect(requestContexts(store, sessionId)(damaged)).rejects.toThrow(/no message no-such-message.*damaged/);
    await store.close();
  });
});
