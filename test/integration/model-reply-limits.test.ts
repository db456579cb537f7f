// A model reply's limits (issue 48) through the real OpenAI-compatible provider and the fake server: a long reply is
// stored and sent back as head and tail with a marker (MODEL_REPLY_MAX_CHARS), and a streamed reply that runs past
// MODEL_REPLY_READ_MAX_CHARS is stopped with one clear error instead of being read on into memory.
import { afterEach, describe, expect, it } from 'vitest';
import { createHistory, runTurn } from '../../internal/llm/index.js';
import { createOpenAIProvider, type OpenAIProvider } from '../../internal/provider/index.js';
import { MODEL_REPLY_MAX_CHARS, MODEL_REPLY_READ_MAX_CHARS } from '../../internal/shared/index.js';
import { modelAt, startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../fakes/fake-openai.js';
import { FakeGame } from '../fakes/fake-game.js';

let fake: FakeOpenAI | undefined;
let provider: OpenAIProvider | undefined;
afterEach(async () => {
  await provider?.close();
  await fake?.close();
  provider = fake = undefined;
});

async function setup(script: FakeStep[]): Promise<{ fake: FakeOpenAI; provider: OpenAIProvider }> {
  fake = await startFakeOpenAI({ script });
  provider = createOpenAIProvider(modelAt(fake), { retry: { maxAttempts: 1, baseMs: 5, maxMs: 10 } });
  return { fake, provider };
}

const game = (): FakeGame => new FakeGame([{ name: 'get_status', readOnly: true, result: 'ok' }]);

describe('model reply limits', () => {
  it(`keeps a reply over ${MODEL_REPLY_MAX_CHARS} characters as head and tail, stored and sent back within it`, async () => {
    const long = `START ${'w'.repeat(MODEL_REPLY_MAX_CHARS * 2)} END`;
    const { fake, provider } = await setup([{ content: long, chunkSize: 16_384 }, { content: 'short' }]);
    const history = createHistory({});
    const options = { provider, game: game(), tools: game().specs(), history, systemPrompt: 'test captain' };
    const first = await runTurn({ ...options, input: { kind: 'user', text: 'talk' } });
    expect(first.outcome).toBe('answered');
    const stored = history.snapshot().find((message) => message.role === 'assistant');
    expect(stored?.content.length).toBeLessThanOrEqual(MODEL_REPLY_MAX_CHARS);
    expect(stored?.content).toMatch(/^START w+\n\[… [\d,]+ chars omitted …\]\nw+ END$/);
    await runTurn({ ...options, input: { kind: 'user', text: 'again' } });
    const sentBack = (fake.chatRequests[1]?.body?.messages as Array<{ role: string; content: string }>).find(
      (message) => message.role === 'assistant',
    );
    // What the model is sent back is within the limit too (the context builder may shorten an older turn more).
    expect(sentBack?.content.length).toBeLessThanOrEqual(MODEL_REPLY_MAX_CHARS);
    expect(sentBack?.content).toMatch(/^START w+\n\[… [\d,]+ chars omitted …\]\nw+ END$/);
  });

  it(`stops reading a streamed reply past ${MODEL_REPLY_READ_MAX_CHARS} characters with one clear error`, async () => {
    const endless = 'z'.repeat(MODEL_REPLY_READ_MAX_CHARS + 100_000);
    const { provider } = await setup([{ content: endless, chunkSize: 65_536 }]);
    const history = createHistory({});
    const result = await runTurn({
      provider,
      game: game(),
      tools: game().specs(),
      history,
      systemPrompt: 'test captain',
      input: { kind: 'user', text: 'talk' },
    });
    expect(result.outcome).toBe('failed');
    expect(String(result.error)).toMatch(/ran past 2,097,152 characters without ending; stopped reading it/);
  });
});
