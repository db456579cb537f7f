// The stream idle timeout (`streamIdleTimeoutMs`): a reply that goes silent mid-stream is given up after N ms of no
// bytes, not after the 300 s body timeout. Nothing from a stalled stream was acted on (no tool call runs inside the
// provider), so it is retried through the one retry layer; a stall on every attempt ends as code `stalled`, quickly.
import { afterEach, describe, expect, it } from 'vitest';
import { createHistory, runTurn } from '../../internal/llm/index.js';
import {
  createOpenAIProvider,
  type OpenAIProvider,
  type OpenAIProviderOptions,
} from '../../internal/provider/index.js';
import { SkipperError, type Message, type StreamDelta } from '../../internal/shared/index.js';
import { FakeGame } from '../fakes/fake-game.js';
import { modelAt, startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../fakes/fake-openai.js';

let fake: FakeOpenAI | undefined;
let provider: OpenAIProvider | undefined;
afterEach(async () => {
  await provider?.close();
  await fake?.close();
  provider = undefined;
  fake = undefined;
});

const user = (content: string): Message => ({ id: 'm1', role: 'user', content, createdAt: 0 });

async function setup(
  script: FakeStep[],
  options: OpenAIProviderOptions = {},
): Promise<{ fake: FakeOpenAI; provider: OpenAIProvider }> {
  fake = await startFakeOpenAI({ script });
  provider = createOpenAIProvider(modelAt(fake, { apiKey: 'sk-test-0123456789' }), {
    retry: { baseMs: 5, maxMs: 10 },
    streamIdleTimeoutMs: 200,
    ...options,
  });
  return { fake, provider };
}

// Without the idle timeout these would wait for the 300 s body timeout: the vitest timeout makes that a failure (a
// generous one, so a busy machine is not mistaken for a missing timeout).
describe('stream idle timeout', { timeout: 30_000 }, () => {
  it('a stream that stalls after its first chunk is retried and the reply comes from the retry', async () => {
    const { fake, provider } = await setup([{ fault: 'stall', afterChunks: 1 }, { content: 'fresh reply' }]);
    const response = await provider.complete({ messages: [user('hi')], tools: [] });
    expect(response.message.content).toBe('fresh reply');
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('a stall after text was shown is retried too, and the UI is told to drop the partial text first', async () => {
    const { fake, provider } = await setup([
      { fault: 'stall', afterChunks: 3, reply: { content: 'abcdefghijklmnop' } },
      { content: 'second try' },
    ]);
    const deltas: StreamDelta[] = [];
    const response = await provider.complete({
      messages: [user('hi')],
      tools: [],
      onDelta: (delta) => deltas.push(delta),
    });
    expect(response.message.content).toBe('second try');
    expect(fake.chatRequests).toHaveLength(2);
    const restart = deltas.findIndex((delta) => delta.type === 'restart');
    expect(restart).toBeGreaterThan(0);
    const text = (from: number, to?: number): string =>
      deltas
        .slice(from, to)
        .map((delta) => (delta.type === 'text' ? delta.text : ''))
        .join('');
    expect(text(0, restart)).not.toBe('');
    expect(text(restart)).toBe('second try');
  });

  it('a stall on every attempt ends as code stalled, without waiting for the body timeout', async () => {
    const { fake, provider } = await setup(
      [
        { fault: 'stall', afterChunks: 1 },
        { fault: 'stall', afterChunks: 2 },
      ],
      { retry: { maxAttempts: 2, baseMs: 5, maxMs: 10 } },
    );
    const error = await provider.complete({ messages: [user('hi')], tools: [] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkipperError);
    expect((error as SkipperError).code).toBe('stalled');
    expect((error as Error).message).toMatch(/no data for 0\.2 s/);
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('a slow but steady stream is not cut: the timer measures silence, not the whole reply', async () => {
    // 23 chunks 0.1 s apart: the reply takes 2.3 s, more than twice the 1 s idle timeout, while each gap stays a tenth
    // of it (room for a busy machine).
    const content = 'slow and steady wins the race, chunk by chunk.';
    const { provider } = await setup([{ content, chunkSize: 2, chunkDelayMs: 100 }], { streamIdleTimeoutMs: 1000 });
    const response = await provider.complete({ messages: [user('hi')], tools: [] });
    expect(response.message.content).toBe(content);
  });

  it('the turn recovers: a stalled first reply is retried and the tool call of the retry runs once', async () => {
    const { fake, provider } = await setup([
      { fault: 'stall', afterChunks: 1, reply: { toolCalls: [{ id: 'c0', name: 'mine', arguments: {} }] } },
      { toolCalls: [{ id: 'c1', name: 'mine', arguments: {} }] },
      { content: 'Mined.' },
    ]);
    const game = new FakeGame([{ name: 'mine', result: 'mined 4 iron_ore' }]);
    const history = createHistory({});
    const result = await runTurn({
      provider,
      game,
      tools: game.specs(),
      history,
      input: { kind: 'user', text: 'mine' },
      systemPrompt: 'test',
    });
    expect(result.outcome).toBe('answered');
    expect(game.calls.map((call) => call.name)).toEqual(['mine']);
    expect(fake.chatRequests).toHaveLength(3);
  });
});
