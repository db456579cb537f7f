// Memory wired the way the CLI wires it: SessionRunner + sessionMemory hooks, the real OpenAI provider against the
// fake server, a real SQLite file. Session 1 meets a failure no wording table knows (hull_breach on mine) in two
// separate turns; session 2's first request carries the lesson and the handoff, and no other captain's memory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRunner } from '../../internal/session/runner.js';
import { createHistory } from '../../internal/llm/index.js';
import { createMemory, mirrorHandoff, sessionMemory } from '../../internal/llm/memory/index.js';
import { createOpenAIProvider, resolveModel } from '../../internal/provider/index.js';
import { silentLogger } from '../../internal/shared/index.js';
import { captainId, openStore, type Store } from '../../internal/store/index.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/fake-openai.js';
import { FakeGame } from '../fakes/fake-game.js';

const NOVA = captainId({ game: 'embedded', username: 'nova' });

function game(): FakeGame {
  return new FakeGame([
    { name: 'get_status', readOnly: true, result: 'Nova | Credits: 80 | Hull: 12/100' },
    {
      name: 'mine',
      result: [
        { text: 'hull_breach: the hull is too damaged to mine', isError: true, code: 'hull_breach' },
        {
          text: 'The hull is too damaged to mine',
          isError: true,
          data: { error: { code: 'hull_breach', message: 'hull too damaged' } },
        },
      ],
    },
    { name: 'repair', result: 'repaired' },
    { name: 'captains_log_add', result: 'log entry added' },
  ]);
}

async function session(options: {
  store: Store;
  fake: FakeOpenAI;
  inputs: string[];
}): Promise<{ runner: SessionRunner; hooks: ReturnType<typeof sessionMemory>; game: FakeGame }> {
  const { store } = options;
  const fakeGame = game();
  const tools = fakeGame.specs();
  const record = await store.createSession({
    game: 'embedded',
    model: 'custom/x',
    username: 'nova',
    goal: 'mine ore for profit',
  });
  const history = createHistory({
    persist: async (message) => {
      await store.append(record.id, message);
    },
  });
  const memory = createMemory({
    port: store.memory,
    captain: NOVA,
    secrets: () => [...store.credentials.passwordList()],
  });
  const hooks = sessionMemory({
    memory,
    messages: () => history.snapshot(),
    tools,
    goal: () => record.goal ?? undefined,
  });
  const runner = new SessionRunner({
    sessionId: record.id,
    sessionName: record.name,
    store: {
      recordUsage: async () => undefined,
      recordSnapshot: async () => undefined,
      recordTurn: async () => undefined,
    },
    history,
    provider: createOpenAIProvider(resolveModel({ model: 'custom/x', baseUrl: options.fake.url }, {})),
    game: fakeGame,
    tools,
    localTools: hooks.localTools(),
    systemPrompt: () => 'You are Skipper.',
    memoryBlock: hooks.memoryBlock,
    maxRounds: 6,
    logger: silentLogger,
  });
  // Each turn's episode and lessons are written once the turn ended; the next input waits for them.
  const written: Array<Promise<unknown>> = [];
  runner.on((event) => {
    if (event.type === 'turn-end')
      written.push(hooks.turnEnded({ turn: event.summary.turn, outcome: event.summary.outcome }));
  });
  for (const text of options.inputs) {
    await runner.run({ kind: 'user', text });
    await Promise.all(written);
  }
  expect(written).toHaveLength(options.inputs.length);
  await memory.settled();
  return { runner, hooks, game: fakeGame };
}

describe('memory through the session runner', () => {
  let dir: string;
  let file: string;
  let fake: FakeOpenAI;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-memory-runner-'));
    file = path.join(dir, 'skipper.db');
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('learns from an unseen failure repeated over two turns and opens the next session with it', async () => {
    let store = await openStore({ path: file });
    await store.credentials.put('embedded', 'nova', 'Nova-Pass-Word-77');
    await store.memory.add({
      captain: captainId({ game: 'embedded', username: 'other' }),
      kind: 'lesson',
      text: 'FOREIGN lesson about mining',
    });
    fake.push(
      { toolCalls: [{ name: 'mine', arguments: {} }] },
      { content: 'Mining failed.' },
      { toolCalls: [{ name: 'mine', arguments: {} }] },
      { toolCalls: [{ name: 'remember', arguments: { text: 'my login: Nova-Pass-Word-77' } }] },
      { content: 'Mining failed again.' },
    );
    const first = await session({ store, fake, inputs: ['Mine some ore.', 'Try mining again.'] });
    expect(await store.memory.list(NOVA, { kind: 'episode' })).toHaveLength(2);
    // The note with the password was refused, as a result the model read.
    const afterRemember = fake.chatRequests[4]?.body?.messages as Array<{ role: string; content: string }>;
    expect(afterRemember.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('remember refused') });
    expect(await store.memory.list(NOVA, { kind: 'note' })).toEqual([]);
    const [lesson, ...more] = await store.memory.list(NOVA, { kind: 'lesson' });
    expect(more).toEqual([]);
    expect(lesson?.text).toMatch(
      /^Avoid repeating mine when it fails with hull_breach: read the error and change something first/,
    );
    expect(lesson?.text).toContain('hull_breach on mine: 2×');
    const end = await first.hooks.endSession({ state: { credits: 80, location: 'Sol / Belt' } });
    expect(end.text).toBe('Last session: 2 turns, credits 80, at Sol / Belt, watch out for hull_breach on mine (2×).');
    expect(
      await mirrorHandoff(first.game, first.game.specs(), end.text, { secrets: [...store.credentials.passwordList()] }),
    ).toEqual({ mirrored: true });
    await store.close();

    store = await openStore({ path: file });
    fake.push({ content: 'Repairing before mining.' });
    const before = fake.chatRequests.length;
    await session({ store, fake, inputs: ['Carry on.'] });
    const messages = fake.chatRequests[before]?.body?.messages as Array<{ role: string; content: string }>;
    const system = messages[0]?.content ?? '';
    expect(system).toContain(end.text);
    expect(system).toContain('Avoid repeating mine when it fails with hull_breach');
    expect(system).not.toContain('FOREIGN');
    expect(system.toLowerCase()).not.toContain('nova-pass-word-77');
    expect(JSON.stringify(await store.memory.list(NOVA)).toLowerCase()).not.toContain('nova-pass-word-77');
    expect(fake.invalid).toEqual([]);
    expect(fake.exhausted).toBe(false);
    await store.close();
  });
});
