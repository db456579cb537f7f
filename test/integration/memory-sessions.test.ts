// Memory across sessions, end to end: the real OpenAI provider against the fake OpenAI server (which records what
// it is sent), the real loop, a real SQLite file reopened between sessions, and a fake game. Session 1 fails the
// same way twice (no_fuel on jump) and tries to remember the password; session 2's first request must carry the
// lesson and the handoff — and nothing foreign, secret or over budget.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHistory, runTurn, type TurnResult } from '../../internal/llm/index.js';
import {
  collectTurnFacts,
  createMemory,
  factualHandoff,
  mirrorHandoff,
  type CaptainMemory,
} from '../../internal/llm/memory/index.js';
import { createOpenAIProvider, resolveModel } from '../../internal/provider/index.js';
import { SPACEMOLT_LESSONS } from '../../internal/spacemolt/index.js';
import { captainId, openStore, type Store } from '../../internal/store/index.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../fakes/fake-openai.js';
import { FakeGame } from '../fakes/fake-game.js';

const PASSWORD = 'Zephyr-Quartz-42';
const GOAL = 'jump to crimson and sell the iron';
const NOVA = captainId({ game: 'embedded', username: 'nova' });
const VEGA = captainId({ game: 'embedded', username: 'vega' });

function newGame(): FakeGame {
  return new FakeGame([
    {
      name: 'get_status',
      readOnly: true,
      result: 'Nova | Sol / Sol Central | Credits: 150 | Fuel: 2/100 | Cargo: 12/70',
    },
    { name: 'jump', result: { text: 'no_fuel: jump needs 5 fuel, you have 2', isError: true, code: 'no_fuel' } },
    { name: 'refuel', result: 'refuelled' },
    { name: 'captains_log_add', result: 'log entry added' },
  ]);
}

const call = (name: string, args: Record<string, unknown>): FakeStep => ({ toolCalls: [{ name, arguments: args }] });
const systemText = (fake: FakeOpenAI, index: number): string => {
  const messages = fake.chatRequests[index]?.body?.messages as Array<{ role: string; content: string }>;
  expect(messages[0]?.role).toBe('system');
  return messages[0]?.content ?? '';
};

async function playTurn(options: {
  store: Store;
  fake: FakeOpenAI;
  game: FakeGame;
  memory: CaptainMemory;
  text: string;
}): Promise<TurnResult> {
  const { store, fake, game, memory } = options;
  const session = await store.createSession({ game: 'embedded', model: 'custom/x', username: 'nova', goal: GOAL });
  const history = createHistory({
    persist: async (message) => {
      await store.append(session.id, message);
    },
  });
  // The block reads the cache: the captain's memory is loaded first (a no-op once it is).
  await memory.load();
  const tools = game.specs();
  const collector = collectTurnFacts(tools);
  const result = await runTurn({
    provider: createOpenAIProvider(resolveModel({ model: 'custom/x', baseUrl: fake.url }, {})),
    game,
    tools,
    history,
    input: { kind: 'user', text: options.text },
    systemPrompt: `You are Skipper. Your goal: ${GOAL}`,
    memoryBlock: memory.block({ goal: GOAL, recentText: options.text }),
    localTools: memory.localTools(),
    onEvent: collector.onEvent,
    turn: 1,
  });
  await memory.recordTurn({
    goal: GOAL,
    outcome: result.outcome,
    creditsBefore: 150,
    creditsAfter: 150,
    ...collector.facts(),
  });
  await memory.settled();
  return result;
}

describe('memory across sessions', () => {
  let dir: string;
  let fake: FakeOpenAI;
  let file: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skipper-memory-it-'));
    file = path.join(dir, 'skipper.db');
    fake = await startFakeOpenAI();
  });
  afterEach(async () => {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('learns a lesson in session 1 and carries it, with the handoff, into session 2', async () => {
    // Session 1: the same failure twice, a note with the password (refused), a good note.
    let store = await openStore({ path: file });
    const secrets = (): string[] => [PASSWORD];
    // The fake game answers with SpaceMolt's codes: its lesson wordings are those a SpaceMolt profile's guide gives.
    const wordings = (): typeof SPACEMOLT_LESSONS => SPACEMOLT_LESSONS;
    let memory = createMemory({ port: store.memory, captain: NOVA, secrets, lessons: wordings });
    const game = newGame();
    fake.push(
      call('jump', { target_system: 'crimson' }),
      call('jump', { target_system: 'crimson' }),
      call('remember', { text: `login password is ${PASSWORD}`, tags: ['login'] }),
      call('remember', { text: 'The crimson lane needs a full tank', tags: ['crimson', 'fuel'] }),
      { content: 'Out of fuel; I will refuel next time.' },
    );
    const first = await playTurn({ store, fake, game, memory, text: 'Go to crimson.' });
    expect(first.outcome).toBe('answered');
    expect(systemText(fake, 0)).not.toContain("Captain's memory");

    const lessons = await store.memory.list(NOVA, { kind: 'lesson' });
    expect(lessons).toHaveLength(1);
    expect(lessons[0]?.text).toMatch(/^Avoid jumping on a low tank: refuel before jumping/);
    expect(lessons[0]?.text).toContain('no_fuel on jump: 2×');
    // The password note was refused as a tool result the model read; nothing with the password was stored.
    const refusal = (fake.chatRequests[3]?.body?.messages as Array<{ role: string; content: string }>).at(-1);
    expect(refusal).toMatchObject({ role: 'tool', content: expect.stringContaining('remember refused') });
    const notes = await store.memory.list(NOVA, { kind: 'note' });
    expect(notes.map((note) => note.text)).toEqual(['The crimson lane needs a full tank']);
    expect(JSON.stringify(await store.memory.list(NOVA)).toLowerCase()).not.toContain(PASSWORD.toLowerCase());

    // End of session 1: a factual handoff, mirrored to the captain's log.
    const handoff = factualHandoff({
      turns: 1,
      creditsStart: 150,
      creditsEnd: 150,
      location: 'Sol / Sol Central',
      cargo: '12/70',
      watchOut: { no_fuel: 2 },
    });
    expect((await memory.writeHandoff(handoff)).ok).toBe(true);
    expect(await mirrorHandoff(game, game.specs(), handoff, { secrets: secrets() })).toEqual({ mirrored: true });
    expect(game.calls.filter((entry) => entry.name === 'captains_log_add').map((entry) => entry.args)).toEqual([
      { entry: handoff },
    ]);

    // Another captain in the same file, and plenty of old turns to put the budget under pressure.
    await store.memory.add({ captain: VEGA, kind: 'note', text: 'VEGA-ONLY: crimson jump is cheap via nebula' });
    await store.memory.add({
      captain: VEGA,
      kind: 'lesson',
      text: 'VEGA-ONLY lesson about jump fuel',
      outcome: 'failure',
    });
    const places = ['alpha', 'beta', 'gamma', 'delta', 'kappa', 'sigma', 'omega', 'theta', 'lambda', 'zeta', 'rho'];
    for (let index = 0; index < 400; index += 1) {
      const where = `${places[index % 11]} ${places[(index * 3) % 7]} ${places[(index * 5) % 10]}`;
      await store.memory.add({
        captain: NOVA,
        kind: 'episode',
        text: `Goal "${GOAL}": answered; did mine, sell at ${where}; crimson iron market`,
        createdAt: Date.now() - 3_600_000,
      });
    }
    await store.close();

    // Session 2: a new store handle on the same file, a new memory; the first request must carry what was learned.
    store = await openStore({ path: file });
    memory = createMemory({ port: store.memory, captain: NOVA, secrets, lessons: wordings });
    fake.push({ content: 'Refuelling first, then jumping.' });
    const before = fake.chatRequests.length;
    const second = await playTurn({ store, fake, game: newGame(), memory, text: 'Continue to crimson.' });
    expect(second.outcome).toBe('answered');
    const system = systemText(fake, before);
    expect(system).toContain("## Captain's memory (from earlier sessions)");
    expect(system).toContain('Avoid jumping on a low tank: refuel before jumping');
    expect(system).toContain(handoff);
    expect(system).toContain('The crimson lane needs a full tank');
    expect(system.indexOf(handoff)).toBeLessThan(system.indexOf('Avoid jumping'));
    expect(system).not.toContain('VEGA-ONLY');
    expect(system.toLowerCase()).not.toContain(PASSWORD.toLowerCase());
    // The block is what the memory built, and it fits the default 1,500-token budget (chars/4).
    const block = system.slice(system.indexOf("## Captain's memory"));
    const blockOnly = block.split('\n\n')[0] ?? '';
    expect(Math.ceil(blockOnly.length / 4)).toBeLessThanOrEqual(1500);
    // Of the 400 routine past turns, at most four are shown (the token diet, issue 50): what was learnt keeps the room.
    const pastTurns = blockOnly.split('\n').filter((line) => line.includes('crimson iron market'));
    expect(pastTurns.length).toBeGreaterThan(0);
    expect(pastTurns.length).toBeLessThanOrEqual(4);
    expect(fake.invalid).toEqual([]);
    expect(fake.exhausted).toBe(false);
    await store.close();
  });

  it('forget removes an entry for good, across sessions', async () => {
    let store = await openStore({ path: file });
    let memory = createMemory({ port: store.memory, captain: NOVA, secrets: () => [PASSWORD] });
    const note = await store.memory.add({ captain: NOVA, kind: 'note', text: 'Sell iron at Sol Central for 12' });
    await store.memory.add({ captain: NOVA, kind: 'note', text: 'Iron is cheap at Crimson Forge' });
    fake.push(call('forget', { id: note.id }), { content: 'Forgotten.' });
    await playTurn({ store, fake, game: newGame(), memory, text: 'Forget the Sol iron price.' });
    expect(systemText(fake, 0)).toContain('Sell iron at Sol Central');
    expect(await store.memory.get(note.id)).toBeUndefined();
    await store.close();

    store = await openStore({ path: file });
    memory = createMemory({ port: store.memory, captain: NOVA, secrets: () => [PASSWORD] });
    fake.push(call('recall', { query: 'iron sol central' }), { content: 'ok' });
    await playTurn({ store, fake, game: newGame(), memory, text: 'Where do I sell iron?' });
    const system = systemText(fake, 2);
    expect(system).toContain('Iron is cheap at Crimson Forge');
    expect(system).not.toContain('Sell iron at Sol Central');
    const recall = (fake.chatRequests[3]?.body?.messages as Array<{ role: string; content: string }>).at(-1);
    expect(recall?.content).not.toContain('Sell iron at Sol Central');
    expect(fake.invalid).toEqual([]);
    await store.close();
  });
});
