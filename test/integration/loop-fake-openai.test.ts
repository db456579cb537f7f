// The agent loop through the real OpenAI-compatible provider and the fake OpenAI server (real HTTP, strict
// transcript validation): what each round sends, cancelled turns that stay valid to send, long results with their
// tail, a repeating model stopped, and no `data` or ids leaking into requests.
import { afterEach, describe, expect, it } from 'vitest';
import { createHistory, runTurn, type History, type TurnResult } from '../../internal/llm/index.js';
import { createOpenAIProvider, type OpenAIProvider } from '../../internal/provider/index.js';
import {
  modelAt,
  startFakeOpenAI,
  type FakeOpenAI,
  type FakeStep,
  type RecordedRequest,
} from '../fakes/fake-openai.js';
import { FakeGame, type FakeTool } from '../fakes/fake-game.js';

type WireMessage = {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};

let fake: FakeOpenAI | undefined;
let provider: OpenAIProvider | undefined;
afterEach(async () => {
  await provider?.close();
  await fake?.close();
  provider = undefined;
  fake = undefined;
});

async function setup(script: FakeStep[]): Promise<{ fake: FakeOpenAI; provider: OpenAIProvider }> {
  fake = await startFakeOpenAI({ script });
  provider = createOpenAIProvider(modelAt(fake), { retry: { maxAttempts: 1, baseMs: 5, maxMs: 10 } });
  return { fake, provider };
}

const messagesOf = (request: RecordedRequest | undefined): WireMessage[] =>
  (request?.body?.messages ?? []) as WireMessage[];

function turn(options: {
  provider: OpenAIProvider;
  game: FakeGame;
  history: History;
  text: string;
  signal?: AbortSignal;
  nudge?: string;
}): Promise<TurnResult> {
  return runTurn({
    provider: options.provider,
    game: options.game,
    tools: options.game.specs(),
    history: options.history,
    input: { kind: 'user', text: options.text },
    systemPrompt: 'You are a test captain.',
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.nudge ? { nudge: options.nudge } : {}),
  });
}

const tools: FakeTool[] = [
  {
    name: 'get_status',
    readOnly: true,
    result: (_args, index) => ({
      text: `Nova | Sol | Credits: ${100 + index}`,
      isError: false,
      data: { player: { credits: 100 + index } },
    }),
  },
  { name: 'get_system', readOnly: true, result: 'Sol: station, belt' },
  { name: 'travel', delayMs: 20, result: 'arrived at belt' },
  { name: 'mine', result: 'mined 4 iron_ore' },
];

describe('agent loop over the fake OpenAI server', () => {
  it('sends round n results in round n+1, in a transcript the strict server accepts', async () => {
    const { fake, provider } = await setup([
      {
        toolCalls: [
          { id: 'c1', name: 'get_status', arguments: {} },
          { id: 'c2', name: 'get_system', arguments: {} },
        ],
      },
      { toolCalls: [{ id: 'c3', name: 'travel', arguments: { target_poi: 'belt' } }] },
      { content: 'Arrived at the belt with 100 credits.' },
    ]);
    const game = new FakeGame(tools);
    const history = createHistory({});
    const result = await turn({ provider, game, history, text: 'go to the belt' });
    expect(result.outcome).toBe('answered');
    expect(result.answer).toBe('Arrived at the belt with 100 credits.');
    expect(fake.invalid).toEqual([]);
    expect(fake.exhausted).toBe(false);
    const [first, second, third] = fake.chatRequests.map(messagesOf);
    expect(first?.map((message) => message.role)).toEqual(['system', 'user']);
    expect(second?.slice(-3).map((message) => [message.role, message.tool_call_id ?? null])).toEqual([
      ['assistant', null],
      ['tool', 'c1'],
      ['tool', 'c2'],
    ]);
    expect(second?.at(-2)?.content).toBe('Nova | Sol | Credits: 100');
    expect(third?.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c3', content: 'arrived at belt' });
    // Structured data, our ids and timestamps never travel.
    const raw = JSON.stringify(fake.chatRequests.map((request) => request.body));
    expect(raw).not.toContain('"data"');
    expect(raw).not.toContain('createdAt');
  });

  it('leaves a cancelled turn valid to send again: the next turn is accepted and carries the cancelled results', async () => {
    const { fake, provider } = await setup([
      {
        toolCalls: [
          { id: 'q', name: 'get_status', arguments: {} },
          { id: 't', name: 'travel', arguments: { target_poi: 'belt' } },
          { id: 'm', name: 'mine', arguments: {} },
        ],
      },
      { content: 'The last trip was cancelled; staying put.' },
    ]);
    const game = new FakeGame([
      ...tools.filter((tool) => tool.name !== 'travel'),
      { name: 'travel', delayMs: 50, ignoreAbort: true, result: 'arrived (late)' },
    ]);
    const history = createHistory({});
    const controller = new AbortController();
    void game.started('travel').then(() => controller.abort());
    const cancelled = await turn({ provider, game, history, text: 'travel', signal: controller.signal });
    expect(cancelled.outcome).toBe('cancelled');
    await game.idle();
    const next = await turn({ provider, game, history, text: 'what happened?' });
    expect(next.outcome).toBe('answered');
    expect(fake.invalid).toEqual([]);
    const sent = messagesOf(fake.chatRequests[1]);
    const results = sent.filter((message) => message.role === 'tool');
    expect(results.map((message) => message.tool_call_id)).toEqual(['q', 't', 'm']);
    expect(String(results[1]?.content)).toMatch(/cancelled/);
    expect(JSON.stringify(sent)).not.toContain('arrived (late)');
  });

  it('cancels during the model request without storing a reply, and the next turn is valid', async () => {
    // The reply would come after 60 s, twice the test's timeout: only the cancel can end the turn in time.
    const { fake, provider } = await setup([
      { fault: 'slow-first-byte', delayMs: 60_000, reply: { content: 'too late' } },
      { content: 'fresh answer' },
    ]);
    const game = new FakeGame(tools);
    const history = createHistory({});
    const controller = new AbortController();
    const pending = turn({ provider, game, history, text: 'hello', signal: controller.signal });
    const waitForRequest = async (): Promise<void> => {
      while (fake.chatRequests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    };
    await waitForRequest();
    controller.abort();
    expect((await pending).outcome).toBe('cancelled');
    expect(history.snapshot().map((message) => message.role)).toEqual(['user']);
    expect((await turn({ provider, game, history, text: 'again' })).outcome).toBe('answered');
    expect(fake.invalid).toEqual([]);
  });

  it('delivers a 50 KB tool result with its tail', async () => {
    const big =
      'LISTING START\n' + 'item, price, stock\n'.repeat(2800) + 'TOTAL 98,765 — WARNING: market closes next tick';
    expect(big.length).toBeGreaterThan(50_000);
    const { fake, provider } = await setup([
      { toolCalls: [{ id: 'v', name: 'view_market', arguments: {} }] },
      { content: 'ok' },
    ]);
    const game = new FakeGame([{ name: 'view_market', readOnly: true, result: big }]);
    await turn({ provider, game, history: createHistory({}), text: 'market?' });
    const result = messagesOf(fake.chatRequests[1]).find((message) => message.tool_call_id === 'v');
    expect(String(result?.content).endsWith('WARNING: market closes next tick')).toBe(true);
    expect(String(result?.content).startsWith('LISTING START')).toBe(true);
    expect(String(result?.content).length).toBeLessThan(10_000);
  });

  it('stops a model that repeats itself and passes the nudge to the next turn', async () => {
    const repeat = { toolCalls: [{ name: 'get_system', arguments: { id: 'sol' } }] };
    const { fake, provider } = await setup([repeat, repeat, repeat, { content: 'Trying something else.' }]);
    const game = new FakeGame(tools);
    const history = createHistory({});
    const looped = await turn({ provider, game, history, text: 'explore' });
    expect(looped.outcome).toBe('loop_detected');
    expect(fake.chatRequests).toHaveLength(3);
    const next = await turn({ provider, game, history, text: 'go on', nudge: looped.nudge ?? '' });
    expect(next.outcome).toBe('answered');
    const system = messagesOf(fake.chatRequests[3])[0];
    expect(String(system?.content)).toMatch(/get_system 3 times/);
    expect(fake.invalid).toEqual([]);
  });

  it('compacts and retries after a real context-length 400, and retries an empty reply once', async () => {
    const { fake, provider } = await setup([
      { toolCalls: [{ id: 'a', name: 'get_system', arguments: {} }] },
      {
        fault: 'status',
        status: 400,
        body: {
          error: {
            message: "This model's maximum context length is 8192 tokens",
            code: 'context_length_exceeded',
            type: 'invalid_request_error',
          },
        },
      },
      { content: '' },
      { content: 'Sol has a station and a belt.' },
    ]);
    const game = new FakeGame(tools);
    const history = createHistory({});
    for (let i = 0; i < 30; i += 1) {
      await history.append({ role: 'user', content: `older question ${i}` });
      await history.append({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `o${i}`, name: 'mine', arguments: '{}' }],
      });
      await history.append({ role: 'tool', content: `mined ${i} `.repeat(100), toolCallId: `o${i}`, toolName: 'mine' });
      await history.append({ role: 'assistant', content: `answer ${i}`, toolCalls: [] });
    }
    const notices: string[] = [];
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'describe Sol' },
      systemPrompt: 'You are a test captain.',
      onEvent: (event) => event.type === 'notice' && notices.push(event.text),
    });
    expect(result.outcome).toBe('answered');
    expect(notices).toHaveLength(2);
    expect(fake.chatRequests).toHaveLength(4);
    const [, tooLong, compacted, nudged] = fake.chatRequests.map(messagesOf);
    expect(JSON.stringify(compacted).length).toBeLessThan(JSON.stringify(tooLong).length);
    for (const message of compacted?.filter((item) => item.role === 'tool' && item.tool_call_id?.startsWith('o')) ??
      []) {
      expect(String(message.content)).toMatch(/^\[mine result omitted: [\d,]+ chars\]$/);
    }
    expect(String(nudged?.at(-1)?.content)).toMatch(/last reply was empty/);
    expect(
      history
        .snapshot()
        .filter((message) => message.role === 'assistant' && message.content === '' && message.toolCalls?.length === 0),
    ).toHaveLength(0);
    expect(fake.invalid).toEqual([]);
  });

  it('answers malformed calls with errors the model reads, in requests the strict server accepts', async () => {
    const { fake, provider } = await setup([
      {
        toolCalls: [
          { id: 'bad', name: 'get_status', arguments: '{"oops": ' },
          { id: 'ghost', name: 'warp_drive', arguments: {} },
          { id: 'ok', name: 'get_system', arguments: {} },
        ],
      },
      { content: 'I will use real tools with JSON arguments.' },
    ]);
    const game = new FakeGame(tools);
    const result = await turn({ provider, game, history: createHistory({}), text: 'go' });
    expect(result.outcome).toBe('answered');
    expect(result.failedToolCalls).toBe(2);
    expect(fake.invalid).toEqual([]);
    const results = messagesOf(fake.chatRequests[1]).filter((message) => message.role === 'tool');
    expect(results.map((message) => message.tool_call_id)).toEqual(['bad', 'ghost', 'ok']);
    expect(String(results[0]?.content)).toMatch(/not valid JSON/);
    expect(String(results[1]?.content)).toMatch(/unknown tool "warp_drive"/);
    expect(game.calls.map((call) => call.name)).toEqual(['get_system']);
  });
});
