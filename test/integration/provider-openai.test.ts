// The real OpenAI-compatible provider (openai SDK over undici) against the fake OpenAI server over real HTTP:
// streaming, tool-call assembly, reasoning, retries and their bounds, aborts, timeouts, broken streams, error
// mapping, usage and cost, and that the API key travels only in the Authorization header.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOpenAIProvider,
  type OpenAIProvider,
  type OpenAIProviderOptions,
  type ProviderUsage,
  type RemoteModelConfig,
} from '../../internal/provider/index.js';
import {
  AbortedError,
  FatalError,
  SkipperError,
  type Message,
  type StreamDelta,
  type ToolSpec,
} from '../../internal/shared/index.js';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep } from '../fakes/fake-openai.js';

const KEY = 'sk-test-SECRET-0123456789';
const tools: ToolSpec[] = [
  {
    name: 'mine',
    description: 'Mine the deposit',
    inputSchema: { type: 'object', properties: { units: { type: 'number' } } },
    readOnly: false,
  },
  { name: 'status', description: 'Ship status', inputSchema: { type: 'object', properties: {} }, readOnly: true },
];
const user = (content: string): Message => ({ id: 'm1', role: 'user', content, createdAt: 0 });

let fake: FakeOpenAI | undefined;
let provider: OpenAIProvider | undefined;
afterEach(async () => {
  await provider?.close();
  await fake?.close();
  provider = undefined;
  fake = undefined;
});

async function setup(
  script: FakeStep[],
  options: OpenAIProviderOptions = {},
  config: Partial<RemoteModelConfig> = {},
): Promise<{ fake: FakeOpenAI; provider: OpenAIProvider }> {
  fake = await startFakeOpenAI({ script, apiKey: KEY });
  provider = createOpenAIProvider(
    {
      id: 'openai/gpt-4o-mini',
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: fake.url,
      apiKey: KEY,
      apiKeyEnv: 'OPENAI_API_KEY',
      local: false,
      ...config,
    },
    { retry: { baseMs: 5, maxMs: 20 }, ...options },
  );
  return { fake, provider };
}

describe('OpenAI provider against the fake server', () => {
  it('streams text deltas in order, sends a valid streaming request with the key as Bearer', async () => {
    const { fake, provider } = await setup([{ content: 'Hello there, captain. Ready.', chunkSize: 3 }]);
    const deltas: StreamDelta[] = [];
    const response = await provider.complete({ messages: [user('hi')], tools, onDelta: (delta) => deltas.push(delta) });
    expect(response.message.content).toBe('Hello there, captain. Ready.');
    expect(response.message.toolCalls).toEqual([]);
    expect(response.finishReason).toBe('stop');
    const texts = deltas.filter((delta) => delta.type === 'text').map((delta) => (delta as { text: string }).text);
    expect(texts.length).toBeGreaterThan(5);
    expect(texts.join('')).toBe('Hello there, captain. Ready.');
    const request = fake.chatRequests[0]!;
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body.stream).toBe(true);
    expect(request.body.stream_options).toEqual({ include_usage: true });
    expect(request.body.model).toBe('gpt-4o-mini');
    expect(request.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual([
      'mine',
      'status',
    ]);
    expect(fake.invalid).toEqual([]);
    expect(fake.exhausted).toBe(false);
  });

  it('assembles tool calls from deltas and keeps reasoning apart', async () => {
    const { provider } = await setup([
      {
        reasoning: 'Cargo is empty, so mine first.',
        reasoningField: 'reasoning',
        toolCalls: [
          { id: 'call_a', name: 'mine', arguments: { units: 5 } },
          { id: 'call_b', name: 'status', arguments: {} },
        ],
        chunkSize: 2,
      },
    ]);
    const deltas: StreamDelta[] = [];
    const response = await provider.complete({ messages: [user('go')], tools, onDelta: (delta) => deltas.push(delta) });
    expect(response.message.toolCalls).toEqual([
      { id: 'call_a', name: 'mine', arguments: '{"units":5}' },
      { id: 'call_b', name: 'status', arguments: '{}' },
    ]);
    expect(response.message.reasoning).toBe('Cargo is empty, so mine first.');
    expect(response.message.content).toBe('');
    expect(response.finishReason).toBe('tool_calls');
    expect(
      deltas
        .filter((delta) => delta.type === 'reasoning')
        .map((delta) => (delta as { text: string }).text)
        .join(''),
    ).toBe('Cargo is empty, so mine first.');
    expect(deltas.some((delta) => delta.type === 'tool-call' && delta.index === 1 && delta.name === 'status')).toBe(
      true,
    );
    expect(deltas.some((delta) => delta.type === 'text')).toBe(false);
  });

  it('sends a follow-up transcript with tool calls and results that the strict server accepts', async () => {
    const { fake, provider } = await setup([{ content: 'done' }]);
    const messages: Message[] = [
      { id: 's', role: 'system', content: 'You are a captain.', createdAt: 0 },
      user('mine please'),
      {
        id: 'a',
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'call_1', name: 'mine', arguments: '{"units":' },
          { id: 'call_2', name: '', arguments: '{}' },
        ],
        reasoning: 'secret thoughts',
        createdAt: 0,
      },
      {
        id: 't1',
        role: 'tool',
        content: 'error: bad JSON',
        toolCallId: 'call_1',
        toolName: 'mine',
        isError: true,
        data: { big: true },
        createdAt: 0,
      },
      { id: 't2', role: 'tool', content: '', toolCallId: 'call_2', toolName: '', isError: true, createdAt: 0 },
    ];
    await provider.complete({ messages, tools });
    expect(fake.invalid).toEqual([]);
    const sent = fake.chatRequests[0]!.body.messages;
    expect(sent[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'mine', arguments: '{}' } },
        { id: 'call_2', type: 'function', function: { name: 'unnamed_tool', arguments: '{}' } },
      ],
    });
    expect(sent[3]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'error: bad JSON' });
    expect(JSON.stringify(sent)).not.toContain('secret thoughts');
    expect(JSON.stringify(sent)).not.toContain('"data"');
  });

  it('honours Retry-After on 429', async () => {
    const delays: number[] = [];
    const { fake, provider } = await setup([{ fault: 'status', status: 429, retryAfter: 1 }, { content: 'ok' }], {
      onRetry: ({ delayMs }) => delays.push(delayMs),
    });
    const response = await provider.complete({ messages: [user('hi')], tools });
    const waited = fake.chatRequests[1]!.receivedAt - fake.chatRequests[0]!.receivedAt;
    expect(response.message.content).toBe('ok');
    // The wait chosen is the server's second, not the backoff's few ms; and the retry really waited for it.
    expect(delays).toEqual([1000]);
    expect(waited).toBeGreaterThanOrEqual(950);
  });

  it('retries a 500 and then succeeds', async () => {
    const { fake, provider } = await setup([
      { fault: 'status', status: 500 },
      { fault: 'status', status: 503 },
      { content: 'third time' },
    ]);
    const response = await provider.complete({ messages: [user('hi')], tools });
    expect(response.message.content).toBe('third time');
    expect(fake.chatRequests).toHaveLength(3);
  });

  it('bounds retries: always 500 fails after maxAttempts requests with a clear error', async () => {
    const { fake, provider } = await setup(
      Array.from({ length: 10 }, () => ({ fault: 'status', status: 500 }) as FakeStep),
      { retry: { maxAttempts: 3, baseMs: 5, maxMs: 10 } },
    );
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkipperError);
    expect((error as SkipperError).code).toBe('server_error');
    expect((error as Error).message).toMatch(/HTTP 500.*gave up after 3 attempts/);
    expect(fake.chatRequests).toHaveLength(3);
  });

  it('an abort during backoff returns at once', async () => {
    // A 60 s backoff, twice the test's timeout: only the abort can settle the call before the test times out.
    let backoffBegan: (delayMs: number) => void = () => undefined;
    const backoff = new Promise<number>((resolve) => (backoffBegan = resolve));
    const { fake, provider } = await setup([{ fault: 'status', status: 429, retryAfter: 60 }, { content: 'never' }], {
      onRetry: ({ delayMs }) => backoffBegan(delayMs),
    });
    const controller = new AbortController();
    const pending = provider.complete({ messages: [user('hi')], tools, signal: controller.signal });
    expect(await backoff).toBe(60_000);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('a slow first byte hits the headers timeout, is retried, then reported', async () => {
    const { fake, provider } = await setup(
      [
        { fault: 'slow-first-byte', delayMs: 5000 },
        { fault: 'slow-first-byte', delayMs: 5000 },
      ],
      { timeouts: { headersMs: 150 }, retry: { maxAttempts: 2, baseMs: 5, maxMs: 10 } },
    );
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    // Without the headers timeout each reply would arrive after its 5 s and the call would succeed.
    expect((error as SkipperError).code).toBe('timeout');
    expect((error as Error).message).toMatch(/timed out.*gave up after 2 attempts/);
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('a slow first byte followed by a good reply succeeds on retry', async () => {
    const { provider } = await setup([{ fault: 'slow-first-byte', delayMs: 5000 }, { content: 'fast now' }], {
      timeouts: { headersMs: 150 },
    });
    const response = await provider.complete({ messages: [user('hi')], tools });
    expect(response.message.content).toBe('fast now');
  });

  it('a stream cut before any delta reached the UI is retried', async () => {
    const { fake, provider } = await setup([{ fault: 'cut-stream', afterChunks: 1 }, { content: 'whole reply' }]);
    const deltas: StreamDelta[] = [];
    const response = await provider.complete({ messages: [user('hi')], tools, onDelta: (delta) => deltas.push(delta) });
    expect(response.message.content).toBe('whole reply');
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('a stream cut after deltas reached the UI fails clearly instead of duplicating text', async () => {
    for (const mode of ['destroy', 'end'] as const) {
      const { fake, provider } = await setup([
        { fault: 'cut-stream', afterChunks: 4, mode, reply: { content: 'abcdefghijklmnopqrstuvwxyz' } },
        { content: 'should not be asked' },
      ]);
      const deltas: StreamDelta[] = [];
      const error = await provider
        .complete({ messages: [user('hi')], tools, onDelta: (delta) => deltas.push(delta) })
        .catch((caught: unknown) => caught);
      expect((error as SkipperError).code).toBe('stream_interrupted');
      expect((error as Error).message).toMatch(/cut off|stopped mid-stream/);
      expect(deltas.length).toBeGreaterThan(0);
      expect(fake.chatRequests).toHaveLength(1);
      await provider.close();
      await fake.close();
    }
  });

  it('malformed JSON gives a clear error after bounded retries', async () => {
    const { fake, provider } = await setup([{ fault: 'malformed-json' }, { fault: 'malformed-json' }], {
      retry: { maxAttempts: 2, baseMs: 5, maxMs: 10 },
    });
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect((error as SkipperError).code).toBe('bad_response');
    expect((error as Error).message).toMatch(/not valid JSON/);
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('reports a context-length 400 as code context_length, without retrying', async () => {
    const { fake, provider } = await setup([
      {
        fault: 'status',
        status: 400,
        body: {
          error: {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        },
      },
    ]);
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SkipperError);
    expect((error as SkipperError).code).toBe('context_length');
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('maps 401 to a FatalError naming the env var, never showing the key', async () => {
    const { provider } = await setup([
      {
        fault: 'status',
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } },
      },
    ]);
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FatalError);
    expect((error as FatalError).code).toBe('auth');
    expect((error as Error).message).toContain('OPENAI_API_KEY');
    expect((error as Error).message).not.toContain(KEY);
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain(KEY);
  });

  it('generates missing tool-call ids, drops nameless empty calls, keeps raw bad arguments', async () => {
    const { provider } = await setup([
      {
        toolCalls: [
          { id: null, name: 'mine', arguments: '{"units": 3' },
          { id: null, name: '', arguments: '' },
          { id: null, name: '', arguments: { units: 1 } },
        ],
      },
    ]);
    const response = await provider.complete({ messages: [user('go')], tools });
    const calls = response.message.toolCalls;
    expect(calls).toHaveLength(2);
    expect(calls[0]!.id).toMatch(/^call_[a-z0-9]+$/);
    expect(calls[1]!.id).toMatch(/^call_[a-z0-9]+$/);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
    expect(calls[0]).toMatchObject({ name: 'mine', arguments: '{"units": 3' });
    expect(calls[1]).toMatchObject({ name: '', arguments: '{"units":1}' });
  });

  it('parses tool calls written as text when no native calls came', async () => {
    const { provider } = await setup([
      {
        fault: 'tool-calls-as-text',
        toolCalls: [
          { name: 'mine', arguments: { units: 2 } },
          { name: 'status', arguments: {} },
        ],
        prefix: 'Let me mine.\n',
      },
      { fault: 'tool-calls-as-text', toolCalls: [{ name: 'status', arguments: {} }], style: 'fence' },
    ]);
    const first = await provider.complete({ messages: [user('go')], tools });
    expect(first.message.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['mine', '{"units":2}'],
      ['status', '{}'],
    ]);
    expect(first.message.content).toBe('Let me mine.');
    expect(first.finishReason).toBe('tool_calls');
    const second = await provider.complete({ messages: [user('go')], tools });
    expect(second.message.toolCalls.map((call) => call.name)).toEqual(['status']);
    expect(second.message.content).toBe('');
  });

  it('reports usage and cost from the usage chunk, and estimates when the server sends none', async () => {
    const { provider } = await setup([
      {
        content: 'priced',
        usage: { promptTokens: 1000, completionTokens: 200, cachedTokens: 400, reasoningTokens: 50 },
      },
      { content: 'no usage here', usage: false },
    ]);
    const first = await provider.complete({ messages: [user('hi')], tools });
    const usage = first.usage as ProviderUsage;
    expect(usage).toMatchObject({
      promptTokens: 1000,
      completionTokens: 200,
      cachedTokens: 400,
      reasoningTokens: 50,
      estimated: false,
      priced: true,
    });
    // gpt-4o-mini: 0.15 in, 0.60 out per M; cached at half price.
    expect(usage.costUsd).toBeCloseTo((600 * 0.15 + 400 * 0.075 + 200 * 0.6) / 1e6, 12);
    const second = await provider.complete({ messages: [user('hi')], tools });
    const estimated = second.usage as ProviderUsage;
    expect(estimated.estimated).toBe(true);
    expect(estimated.promptTokens).toBeGreaterThan(0);
    expect(estimated.completionTokens).toBe(Math.ceil('no usage here'.length / 4));
  });

  it('fails fast with how to start a local server when nothing listens', async () => {
    const closed = await startFakeOpenAI();
    const url = closed.url;
    await closed.close();
    provider = createOpenAIProvider(
      { id: 'ollama/llama3.2', provider: 'ollama', model: 'llama3.2', baseUrl: url, local: true },
      { retry: { baseMs: 5, maxMs: 10 } },
    );
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FatalError);
    expect((error as FatalError).code).toBe('unreachable');
    expect((error as Error).message).toBe(`cannot reach Ollama at ${url} — start it with \`ollama serve\``);
  });

  it('a 404 for an unknown model says to check the model name', async () => {
    const { provider } = await setup([
      {
        fault: 'status',
        status: 404,
        body: { error: { message: 'The model `gpt-nope` does not exist', code: 'model_not_found' } },
      },
    ]);
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect((error as FatalError).code).toBe('model_not_found');
    expect((error as Error).message).toMatch(/check the model name "gpt-4o-mini"/);
  });
});

describe('OpenAI provider against unusual servers', () => {
  it('accepts a plain JSON reply to a streaming request', async () => {
    fake = await startFakeOpenAI({
      script: [{ content: 'not streamed', reasoning: 'r', toolCalls: [{ id: 'x1', name: 'status', arguments: {} }] }],
      ignoreStream: true,
    });
    provider = createOpenAIProvider({
      id: 'custom/m',
      provider: 'custom',
      model: 'm',
      baseUrl: fake.url,
      local: false,
    });
    const deltas: StreamDelta[] = [];
    const response = await provider.complete({ messages: [user('hi')], tools, onDelta: (delta) => deltas.push(delta) });
    expect(response.message).toEqual({
      content: 'not streamed',
      reasoning: 'r',
      toolCalls: [{ id: 'x1', name: 'status', arguments: '{}' }],
    });
    expect(deltas).toEqual([
      { type: 'reasoning', text: 'r' },
      { type: 'text', text: 'not streamed' },
    ]);
    expect((response.usage as ProviderUsage).priced).toBe(false);
  });

  it('reports an error object sent inside the stream; context-length ones as context_length', async () => {
    const { provider } = await setup([
      {
        fault: 'stream-error',
        error: { message: 'prompt is too long: 200000 tokens > 100000 maximum', type: 'invalid_request_error' },
      },
      { fault: 'stream-error', error: { message: 'upstream overloaded' } },
      { content: 'recovered' },
    ]);
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect((error as SkipperError).code).toBe('context_length');
    const response = await provider.complete({ messages: [user('hi')], tools });
    expect(response.message.content).toBe('recovered');
  });

  it('tool-call deltas without index and without ids still assemble', async () => {
    const { provider } = await setup([
      { toolCalls: [{ id: null, name: 'mine', arguments: { units: 7 } }], omitToolCallIndex: true, chunkSize: 1 },
    ]);
    const response = await provider.complete({ messages: [user('go')], tools });
    expect(response.message.toolCalls).toHaveLength(1);
    expect(response.message.toolCalls[0]).toMatchObject({ name: 'mine', arguments: '{"units":7}' });
  });
});

describe('OpenAI provider: aborts, stalls and resets', () => {
  it('an abort mid-stream stops at once with AbortedError', async () => {
    const reply = 'a slow, slow reply that takes a long while, chunk by chunk, word by word, to the very end';
    const { provider } = await setup([{ content: reply, chunkDelayMs: 300 }]);
    const controller = new AbortController();
    let seen = '';
    const pending = provider.complete({
      messages: [user('hi')],
      tools,
      signal: controller.signal,
      onDelta: (delta) => {
        if (delta.type !== 'text') return;
        seen += delta.text;
        controller.abort();
      },
    });
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    // The stream was dropped, not read to its end (a chunk already in the buffer may still be shown).
    expect(reply.startsWith(seen)).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(reply.length / 2);
  });

  it('an abort while waiting for the first byte stops at once', async () => {
    // The first byte would come after 60 s, twice the test's timeout: only the abort can settle the call in time.
    const { fake, provider } = await setup([{ fault: 'slow-first-byte', delayMs: 60_000 }]);
    const controller = new AbortController();
    const pending = provider.complete({ messages: [user('hi')], tools, signal: controller.signal });
    while (fake.chatRequests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });

  it('a stream that stalls after text was shown fails with a timeout and is not retried', async () => {
    const { fake, provider } = await setup([{ fault: 'stall', afterChunks: 3 }, { content: 'no' }], {
      timeouts: { bodyMs: 300 },
    });
    const error = await provider
      .complete({ messages: [user('hi')], tools, onDelta: () => {} })
      .catch((caught: unknown) => caught);
    expect((error as SkipperError).code).toBe('timeout');
    expect((error as Error).message).toMatch(/between stream chunks/);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('a dropped connection to a remote server is retried', async () => {
    const { fake, provider } = await setup([{ fault: 'reset' }, { content: 'back' }]);
    const response = await provider.complete({ messages: [user('hi')], tools });
    expect(response.message.content).toBe('back');
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('quota exhaustion (429 insufficient_quota) is fatal, not retried', async () => {
    const { fake, provider } = await setup([
      {
        fault: 'status',
        status: 429,
        body: { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } },
      },
    ]);
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FatalError);
    expect((error as FatalError).code).toBe('quota');
    expect(fake.chatRequests).toHaveLength(1);
  });
});

describe('OpenAI provider: server quirks', () => {
  it('delivers deltas while the stream is still running', async () => {
    // The server sends three chunks and then nothing: a provider that waited for the whole reply would show none.
    const { provider } = await setup(
      [{ fault: 'stall', afterChunks: 3, reply: { content: 'one two three four five six', chunkSize: 4 } }],
      {
        timeouts: { bodyMs: 300 },
      },
    );
    let seen = '';
    const error = await provider
      .complete({
        messages: [user('hi')],
        tools,
        onDelta: (delta) => void (delta.type === 'text' && (seen += delta.text)),
      })
      .catch((caught: unknown) => caught);
    expect((error as SkipperError).code).toBe('timeout');
    expect(seen.length).toBeGreaterThan(0);
    expect('one two three four five six'.startsWith(seen)).toBe(true);
  });

  it('drops stream_options for a server that rejects it, and estimates usage', async () => {
    const { fake, provider } = await setup([
      {
        fault: 'status',
        status: 400,
        body: { error: { message: 'Unrecognized request argument supplied: stream_options' } },
      },
      { content: 'fine', usage: false },
      { content: 'again', usage: false },
    ]);
    const first = await provider.complete({ messages: [user('hi')], tools });
    expect(first.message.content).toBe('fine');
    expect((first.usage as ProviderUsage).estimated).toBe(true);
    await provider.complete({ messages: [user('hi')], tools });
    expect(fake.chatRequests.map((request) => 'stream_options' in request.body)).toEqual([true, false, false]);
  });

  it('a model without tool support is a clear fatal error', async () => {
    const { provider } = await setup([
      {
        fault: 'status',
        status: 400,
        body: { error: { message: 'registry.ollama.ai/library/gemma:2b does not support tools' } },
      },
    ]);
    const error = await provider.complete({ messages: [user('hi')], tools }).catch((caught: unknown) => caught);
    expect((error as FatalError).code).toBe('tools_unsupported');
  });
});
